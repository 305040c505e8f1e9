//! The built-in games, defined as data in `definitions.toml`, their lookup by name, and
//! `AnyGame`, which holds a game compiled for the bitboard width its board needs. The
//! definition format itself (`VariantSpec` and its parser) is part of the rules
//! (`rules::spec`), so that the rules never depend on this layer.

use crate::core::{PerWidth, Wide};
use crate::rules::Game;
/// The definition model, reachable here too, next to the built-in definitions.
pub use crate::rules::spec;
use crate::with_width;
pub use spec::SpecError;
use spec::{VariantSpec, parse_definitions, parse_definitions_over};
use std::sync::OnceLock;

/// The built-in definitions file, compiled into the binary.
pub const BUILTIN_DEFINITIONS: &str = include_str!("definitions.toml");

/// The built-in variant definitions.
pub fn builtin() -> &'static [VariantSpec] {
    static SPECS: OnceLock<Vec<VariantSpec>> = OnceLock::new();
    SPECS.get_or_init(|| {
        parse_definitions(BUILTIN_DEFINITIONS).expect("the built-in definitions are valid")
    })
}

/// Reads a user's definitions file; its variants may inherit the built-in ones. Returns
/// the file's text with its variants.
pub fn load_file(path: &std::path::Path) -> Result<(String, Vec<VariantSpec>), SpecError> {
    let text = std::fs::read_to_string(path).map_err(|source| SpecError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let specs =
        parse_definitions_over(&text, BUILTIN_DEFINITIONS).map_err(|e| SpecError::InFile {
            path: path.to_path_buf(),
            inner: Box::new(e),
        })?;
    Ok((text, specs))
}

/// The variant `name` with some of its definition's keys replaced: `rules` are
/// `key=value` pairs in the definitions format (`okazaki=true`, `promotion=to-zone`).
/// `user_text` is a user's definitions file (may be empty) whose variants are known too.
/// This is how a rule on which players disagree becomes a named option.
pub fn with_rules(name: &str, rules: &[String], user_text: &str) -> Result<VariantSpec, SpecError> {
    let mut text = format!("[[variant]]\nname = \"{name}-options\"\ninherits = \"{name}\"\n");
    for rule in rules {
        let (key, value) = rule
            .split_once('=')
            .ok_or_else(|| SpecError::RuleNotKeyValue { rule: rule.clone() })?;
        let (key, value) = (key.trim(), value.trim());
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
            let (rule, key) = (rule.clone(), key.to_string());
            return Err(SpecError::RuleKey { rule, key });
        }
        let literal = value == "true"
            || value == "false"
            || value.parse::<i64>().is_ok()
            || value.starts_with('[');
        let value = if literal {
            value.to_string()
        } else {
            format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\""))
        };
        if spec::DEFINITION_KEYS.contains(&key) {
            text += &format!("{key} = {value}\n");
        } else {
            text += &format!("choose.{key} = {value}\n");
        }
    }
    let base = format!("{BUILTIN_DEFINITIONS}\n{user_text}");
    let mut specs = parse_definitions_over(&text, &base)
        .map_err(|e| SpecError::Rule(Box::new(e.renamed(&format!("{name}-options"), name))))?;
    let mut spec = specs.pop().expect("one variant defined");
    spec.name = name.to_string();
    spec.description = format!("{} ({})", spec.description, rules.join(", "));
    Ok(spec)
}

/// Finds a variant by name among `extra` (a user's definitions) and the built-in ones.
/// Names are matched without regard to case (`Chu` is `chu`), and an old name still finds
/// its variant.
pub fn find_in<'a>(extra: &'a [VariantSpec], name: &str) -> Result<&'a VariantSpec, SpecError> {
    match extra.iter().find(|v| v.name.eq_ignore_ascii_case(name)) {
        Some(v) => Ok(v),
        None => find(name),
    }
}

/// The variant `name` (as `find_in` finds it) with `rules` (`KEY=VALUE`, as `--rule`)
/// applied; `user_text` is the definitions file of the user's variants, which a rule
/// on one of them needs.
pub fn find_with_rules(
    extra: &[VariantSpec],
    name: &str,
    rules: &[String],
    user_text: &str,
) -> Result<VariantSpec, SpecError> {
    let spec = find_in(extra, name)?;
    if rules.is_empty() {
        Ok(spec.clone())
    } else {
        with_rules(&spec.name, rules, user_text)
    }
}

/// Earlier names of built-in variants, as (old name, name).
const OLD_NAMES: &[(&str, &str)] = &[
    // Renamed so that the CLI, UCI and CECP share one name: XBoard reads any name that
    // starts with "courier" and a non-letter as its own Courier.
    ("courier-modern", "modern-courier"),
];

/// Finds a built-in variant by name (any case, or an old name).
pub fn find(name: &str) -> Result<&'static VariantSpec, SpecError> {
    let name = OLD_NAMES
        .iter()
        .find(|(old, _)| old.eq_ignore_ascii_case(name))
        .map_or(name, |(_, new)| *new);
    builtin()
        .iter()
        .find(|v| v.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| SpecError::UnknownVariant {
            name: name.to_string(),
            known: builtin().iter().map(|v| v.name.clone()).collect(),
        })
}

/// Compiled games, one type per width: `Box<Game<W>>` (boxed, so that an `AnyGame` is
/// small whatever its width).
pub enum Games {}

impl PerWidth for Games {
    type At<const W: usize> = Box<Game<W>>;
}

/// A compiled game of any board size. Code that works on every game is written once,
/// generic over `W`, and reached through `with_width!`, so that hot paths are
/// monomorphised and never dispatch dynamically.
pub type AnyGame = Wide<Games>;

impl AnyGame {
    /// Compiles `spec` for the narrowest bitboard that holds its board.
    pub fn new(spec: &VariantSpec) -> Result<AnyGame, SpecError> {
        Ok(with_width!(lanes spec.geometry.lanes() => Box::new(Game::new(spec)?)))
    }

    /// Compiles the built-in variant `name`.
    pub fn builtin(name: &str) -> Result<AnyGame, SpecError> {
        AnyGame::new(find(name)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_compiles() {
        for spec in builtin() {
            AnyGame::new(spec).unwrap_or_else(|e| panic!("{}: {e}", spec.name));
        }
        assert!(find("nonesuch").unwrap_err().to_string().contains("chess"));
        assert_eq!(find("Chu").unwrap().name, "chu");
        assert_eq!(find("courier-modern").unwrap().name, "modern-courier");
    }
}
