//! Variant definition files (`--variants-file`, `VariantRules`): one built-in
//! definition, renamed so that it is a user's variant inheriting nothing, with lines
//! dropped, doubled, edited or given other values. A definition is refused with an error
//! or compiled; a compiled game's start position is refused or plays: its legal moves
//! fit their bound, and a few random moves keep its key right. Board sizes, piece
//! counts and texts past the limits are errors, never an allocation as large as asked.

use crate::common::{Edit, character, edited};
use bolero::{TypeGenerator, check};
use kirin::rules::{Game, MoveList, Position};
use kirin::variants::{self, AnyGame, BUILTIN_DEFINITIONS};
use kirin::with_width;

#[derive(Debug, TypeGenerator)]
struct DefinitionCase {
    /// Which built-in definition is the seed.
    which: u8,
    /// How many of `lines` are made (0 to 3).
    count: u8,
    lines: Vec<LineEdit>,
    /// Random moves made from the start of a compiled game.
    plies: Vec<u8>,
}

#[derive(Debug, TypeGenerator)]
enum LineEdit {
    Drop { at: u16 },
    Double { at: u16 },
    Text { at: u16, edits: Vec<Edit> },
    Value { at: u16, value: Value },
}

/// A value put after a line's `=`.
#[derive(Debug, TypeGenerator)]
enum Value {
    Number(i64),
    Small(u8),
    Bool(bool),
    Text(Vec<u8>),
    List(Vec<u8>),
}

impl Value {
    fn toml(&self) -> String {
        let text = |bytes: &[u8]| {
            bytes
                .iter()
                .take(40)
                .map(|&b| character(b))
                .collect::<String>()
        };
        match self {
            Value::Number(n) => n.to_string(),
            Value::Small(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Text(bytes) => format!("{:?}", text(bytes)),
            Value::List(bytes) => {
                let items: Vec<String> = bytes
                    .iter()
                    .take(12)
                    .map(|&b| format!("{:?}", character(b).to_string()))
                    .collect();
                format!("[{}]", items.join(", "))
            }
        }
    }
}

/// The built-in definitions, one text each, renamed `fuzzed` and standing alone.
fn seeds() -> Vec<String> {
    let mut out = Vec::new();
    for part in BUILTIN_DEFINITIONS.split("[[variant]]\n").skip(1) {
        let body: Vec<&str> = part
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .filter(|l| !l.starts_with("name =") && !l.starts_with("inherits ="))
            .collect();
        out.push(format!(
            "[[variant]]\nname = \"fuzzed\"\n{}\n",
            body.join("\n")
        ));
    }
    out
}

#[test]
fn definitions() {
    let seeds = seeds();
    check!()
        .with_type::<DefinitionCase>()
        .with_iterations(200)
        .for_each(|case| one_definition(&seeds, case));
}

fn one_definition(seeds: &[String], case: &DefinitionCase) {
    let seed = &seeds[case.which as usize % seeds.len()];
    let mut lines: Vec<String> = seed.lines().map(str::to_string).collect();
    for edit in crate::common::first(&case.lines, case.count % 4) {
        let n = lines.len();
        if n == 0 {
            break;
        }
        match edit {
            LineEdit::Drop { at } => {
                lines.remove(*at as usize % n);
            }
            LineEdit::Double { at } => {
                let i = *at as usize % n;
                lines.insert(i, lines[i].clone());
            }
            LineEdit::Text { at, edits } => {
                let i = *at as usize % n;
                lines[i] = edited(&lines[i], &edits[..edits.len().min(4)], 400);
            }
            LineEdit::Value { at, value } => {
                let i = *at as usize % n;
                if let Some((key, _)) = lines[i].split_once('=') {
                    lines[i] = format!("{key}= {}", value.toml());
                }
            }
        }
    }
    let text = lines.join("\n");
    let Ok(specs) = variants::spec::parse_definitions_over(&text, BUILTIN_DEFINITIONS) else {
        return;
    };
    for spec in &specs {
        if let Ok(any) = AnyGame::new(spec) {
            with_width!(&any, g => plays(g, &case.plies));
        }
    }
}

/// A compiled user game: its start is refused (a definition may name a start its pieces
/// cannot stand in) or plays.
fn plays<const W: usize>(g: &Game<W>, plies: &[u8]) {
    let Ok(mut pos) = Position::from_fen(g, &g.spec.start) else {
        return;
    };
    for &choice in plies.iter().take(12) {
        let mut list = MoveList::new();
        g.legal_moves(&mut pos, &mut list);
        assert!(
            list.len() <= g.move_bound(&pos, pos.side),
            "{}: moves over the bound",
            g.spec.name
        );
        if list.is_empty() {
            return;
        }
        let m = list[choice as usize % list.len()];
        pos.make(g, m);
        assert_eq!(
            pos.key,
            pos.compute_key(g),
            "stale key after {}",
            g.move_text(m)
        );
    }
}
