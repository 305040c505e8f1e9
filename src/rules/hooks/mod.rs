//! Special rules that a variant switches on by name (`hooks = [...]` in its definition)
//! or by data (citadels, resting pieces, swapping royals). Move generation calls them only
//! when the variant has them.

pub mod lion_trading;
pub mod royal_swap;
pub mod sanctuaries;
