//! The crate's modules form layers (docs/design.md, "Layers"): a module may use the ones
//! below it, never one above. This test reads the sources, leaves out `#[cfg(test)]`
//! items (tests may reach any layer) and fails on every upward reference, naming its
//! file and line.

use std::path::{Path, PathBuf};

/// The top-level modules, lowest first.
const LAYERS: &[&str] = &[
    "core",
    "rules",
    "variants",
    "eval",
    "search",
    "protocol",
    "cli_search",
    "arena",
    "tune",
    "cli",
];

/// Macros exported at the crate root, with the module that defines them: using one is a
/// reference to that module.
const MACROS: &[(&str, &str)] = &[("with_width", "core"), ("say", "protocol")];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|&l| l == module)
}

/// `text` with comments, string and character literals blanked out (newlines kept), so
/// that braces and paths inside them count for nothing.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        let end = if rest.starts_with(b"//") {
            i + rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len())
        } else if rest.starts_with(b"/*") {
            i + 2 + find(&rest[2..], b"*/").map_or(rest.len() - 2, |e| e + 2)
        } else if rest.starts_with(b"r#\"") || rest.starts_with(b"r\"") {
            let hashes = rest[1..].iter().take_while(|&&c| c == b'#').count();
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            let body = 2 + hashes;
            i + body + find(&rest[body..], &close).map_or(rest.len() - body, |e| e + close.len())
        } else if rest[0] == b'"' {
            let mut j = 1;
            while j < rest.len() && rest[j] != b'"' {
                j += if rest[j] == b'\\' { 2 } else { 1 };
            }
            i + (j + 1).min(rest.len())
        } else if rest[0] == b'\'' && rest.get(1) == Some(&b'\\') {
            i + 2
                + rest[2..]
                    .iter()
                    .position(|&c| c == b'\'')
                    .map_or(0, |e| e + 1)
        } else if rest[0] == b'\'' && rest.get(2) == Some(&b'\'') {
            i + 3
        } else {
            i += 1;
            continue;
        };
        blank(&mut out, i, end);
        i = end;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// `code` (from `code_only`) without the items marked `#[cfg(test)]`: each is blanked up
/// to its `;` or to the brace that closes its body.
fn without_tests(code: &str) -> String {
    let mut out = code.as_bytes().to_vec();
    let mut from = 0;
    while let Some(at) = code[from..].find("#[cfg(test)]").map(|a| a + from) {
        let mut depth = 0usize;
        let mut end = code.len();
        for (k, c) in code[at..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = at + k + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = at + k + 1;
                    break;
                }
                _ => {}
            }
        }
        for c in &mut out[at..end] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
        from = end;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The top-level modules `code` refers to, with the line of each reference: paths
/// `crate::m`, groups `crate::{a, b::c}`, and the crate's own macros.
fn references(code: &str) -> Vec<(usize, String)> {
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut found = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let after = code[at + "crate::".len()..].trim_start();
        if let Some(group) = after.strip_prefix('{') {
            let mut depth = 0;
            let mut start = true;
            for (k, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if c.is_whitespace() => {}
                    _ if start => {
                        found.push((line_of(at), ident(&group[k..])));
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            found.push((line_of(at), ident(after)));
        }
    }
    for (name, module) in MACROS {
        for (at, _) in code.match_indices(&format!("{name}!")) {
            let before = code[..at].chars().next_back();
            if !before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                found.push((line_of(at), module.to_string()));
            }
        }
    }
    found
        .into_iter()
        .map(|(line, name)| {
            let module = MACROS
                .iter()
                .find(|m| m.0 == name)
                .map_or(name, |m| m.1.to_string());
            (line, module)
        })
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a source file belongs to (`src/rules/game.rs` is in `rules`).
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).expect("a file under src");
    let first = relative.components().next().expect("a path");
    let name = first.as_os_str().to_string_lossy();
    name.trim_end_matches(".rs").to_string()
}

/// Every upward reference in the crate, as `file:line: module uses higher`.
fn upward_references() -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut wrong = Vec::new();
    for file in files {
        let module = module_of(&src, &file);
        // The crate root and the binary sit above every layer.
        let Some(own) = layer(&module) else { continue };
        let text = std::fs::read_to_string(&file).expect("a readable source file");
        for (line, used) in references(&without_tests(&code_only(&text))) {
            if layer(&used).is_some_and(|l| l > own) {
                wrong.push(format!(
                    "{}:{line}: {module} uses {used}, a higher layer",
                    file.display()
                ));
            }
        }
    }
    wrong
}

#[test]
fn no_module_uses_a_higher_layer() {
    let wrong = upward_references();
    assert!(wrong.is_empty(), "upward imports:\n{}", wrong.join("\n"));
}

#[test]
fn the_checker_sees_paths_groups_and_macros() {
    let code = code_only(
        "use crate::{core::Move, search::tt};\n\
         // crate::cli in a comment\n\
         fn f() { let s = \"crate::cli\"; crate::protocol::say(s); say!(\"{}\", 1); }\n\
         #[cfg(test)]\n\
         mod tests { use crate::cli; fn g() { let c = '}'; } }\n\
         #[cfg(test)]\n\
         use crate::cli_search;\n",
    );
    let found = references(&without_tests(&code));
    let names: Vec<(usize, &str)> = found.iter().map(|(l, m)| (*l, m.as_str())).collect();
    assert_eq!(
        names,
        [(1, "core"), (1, "search"), (3, "protocol"), (3, "protocol")]
    );
}
