//! Special rules that a variant switches on by name (`hooks = [...]` in its definition).
//! Move generation calls them only when the variant enables them.

pub mod lion_trading;
