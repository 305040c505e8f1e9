//! Tuning the evaluation: `kirin datagen` writes quiet positions of self-play games with
//! their results (`datagen`), and `kirin tune` fits a game's evaluation parameters to them
//! (`texel`), printing a `[variant.eval]` section for its definition (docs/tuning.md);
//! `kirin label` scores the positions anew with another engine (`label`).

pub mod data;
pub mod datagen;
pub mod label;
pub mod texel;
