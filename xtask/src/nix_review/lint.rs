//! A name that a `let` binds with `inherit (SET) NAME;` and nothing uses.
//!
//! deadnix reports unused `let` bindings, but it takes a name that occurs again
//! only as an attribute that another `inherit (OTHER) NAME;` copies (a new
//! attribute, not a use) for a use, so `let inherit (packages) src; in {inherit
//! (commonArgs) src;}` passes it. This lint reads the file's tokens: a name bound
//! that way is used when it occurs outside an `inherit (…)` statement, not after a
//! `.` (an attribute path) and not before a single `=` (an attribute's definition).
//! It is scope-blind, so it can miss a dead name that another scope uses; it never
//! reports a used one.

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Punct(&'static str),
}

/// The file's tokens, with line numbers: identifiers and the punctuation the lint
/// reads. Comments and string text are skipped; `${…}` inside strings is read.
fn tokens(src: &str) -> Vec<(Tok, usize)> {
    #[derive(PartialEq)]
    enum Ctx {
        Code,
        Str,
        IndStr,
    }
    let b = src.as_bytes();
    let (mut i, mut line) = (0, 1);
    let mut out = Vec::new();
    // What each open `{` or `${` returns to: `${` returns to its string.
    let mut stack: Vec<Ctx> = vec![Ctx::Code];
    let mut braces: Vec<bool> = Vec::new(); // true: this `}` closes a `${`
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line += 1;
        }
        match stack.last().unwrap() {
            Ctx::Str => {
                match (c, b.get(i + 1)) {
                    (b'\\', _) => i += 1,
                    (b'"', _) => {
                        stack.pop();
                    }
                    (b'$', Some(b'{')) => {
                        stack.push(Ctx::Code);
                        braces.push(true);
                        i += 1;
                    }
                    _ => {}
                }
                i += 1;
                continue;
            }
            Ctx::IndStr => {
                match (c, b.get(i + 1), b.get(i + 2)) {
                    (b'\'', Some(b'\''), Some(b'$' | b'\'' | b'\\')) => i += 2,
                    (b'\'', Some(b'\''), _) => {
                        stack.pop();
                        i += 1;
                    }
                    (b'$', Some(b'{'), _) => {
                        stack.push(Ctx::Code);
                        braces.push(true);
                        i += 1;
                    }
                    _ => {}
                }
                i += 1;
                continue;
            }
            Ctx::Code => {}
        }
        match c {
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    line += usize::from(b[i] == b'\n');
                    i += 1;
                }
                i += 2;
                continue;
            }
            b'"' => stack.push(Ctx::Str),
            b'\'' if b.get(i + 1) == Some(&b'\'') => {
                stack.push(Ctx::IndStr);
                i += 1;
            }
            b'{' => {
                braces.push(false);
                out.push((Tok::Punct("{"), line));
            }
            b'}' => {
                if braces.pop() == Some(true) {
                    stack.pop();
                } else {
                    out.push((Tok::Punct("}"), line));
                }
            }
            b'=' if b.get(i + 1) == Some(&b'=') => {
                out.push((Tok::Punct("=="), line));
                i += 1;
            }
            b'(' | b')' | b'[' | b']' | b';' | b'.' | b'=' => {
                let p = match c {
                    b'(' => "(",
                    b')' => ")",
                    b'[' => "[",
                    b']' => "]",
                    b';' => ";",
                    b'.' => ".",
                    _ => "=",
                };
                out.push((Tok::Punct(p), line));
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < b.len()
                    && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'-' | b'\''))
                {
                    i += 1;
                }
                out.push((Tok::Ident(src[start..i].to_owned()), line));
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// `(name, line)` of every name a `let … in` binds with `inherit (SET) …;` and the
/// file does not use.
pub fn unused_let_inherits(src: &str) -> Vec<(String, usize)> {
    let toks = tokens(src);
    let ident = |k: usize| match toks.get(k) {
        Some((Tok::Ident(s), _)) => Some(s.as_str()),
        _ => None,
    };
    let punct = |k: usize, p: &str| matches!(toks.get(k), Some((Tok::Punct(q), _)) if *q == p);
    // Open contexts: "let" (until its `in`), "{", "(", "[".
    let mut open: Vec<&str> = Vec::new();
    let mut bound: Vec<(String, usize)> = Vec::new();
    let mut used = std::collections::BTreeSet::new();
    let mut k = 0;
    while k < toks.len() {
        match ident(k) {
            Some("let") => open.push("let"),
            Some("in") => {
                if let Some(pos) = open.iter().rposition(|c| *c == "let") {
                    open.truncate(pos);
                }
            }
            Some("inherit") => {
                let in_let = open.last() == Some(&"let");
                let mut j = k + 1;
                let from_set = punct(j, "(");
                if from_set {
                    let mut depth = 0;
                    loop {
                        depth += i32::from(punct(j, "(")) - i32::from(punct(j, ")"));
                        if let Some(name) = ident(j) {
                            used.insert(name.to_owned()); // the set's expression
                        }
                        j += 1;
                        if depth == 0 || j >= toks.len() {
                            break;
                        }
                    }
                }
                while j < toks.len() && !punct(j, ";") {
                    if let Some(name) = ident(j) {
                        if !from_set {
                            used.insert(name.to_owned());
                        } else if in_let {
                            bound.push((name.to_owned(), toks[j].1));
                        }
                    }
                    j += 1;
                }
                k = j + 1;
                continue;
            }
            Some(name) => {
                let selected = k > 0 && punct(k - 1, ".");
                let defined = punct(k + 1, "=");
                if !selected && !defined {
                    used.insert(name.to_owned());
                }
            }
            None => {
                for p in ["{", "(", "["] {
                    if punct(k, p) {
                        open.push(p);
                    }
                }
                for (close, opener) in [("}", "{"), (")", "("), ("]", "[")] {
                    if punct(k, close) {
                        if let Some(pos) = open.iter().rposition(|c| *c == opener) {
                            open.truncate(pos);
                        }
                    }
                }
            }
        }
        k += 1;
    }
    bound.retain(|(name, _)| !used.contains(name));
    bound
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_copied_only_into_another_inherit_is_unused() {
        let src = "{packages}: let\n  inherit (packages) src commonArgs;\n  x = commonArgs;\nin {\n  fmt = f {inherit (commonArgs) src pname;};\n  inherit x;\n}\n";
        assert_eq!(unused_let_inherits(src), vec![("src".to_owned(), 2)]);
    }

    #[test]
    fn uses_count_in_expressions_interpolations_and_plain_inherits() {
        let src = "{p}: let\n  inherit (p) a b c d;\nin {\n  x = a;\n  y = \"${b}/bin\";\n  inherit c;\n  z = ''\n    ${d}\n  '';\n}\n";
        assert!(unused_let_inherits(src).is_empty());
    }

    #[test]
    fn attribute_paths_and_definitions_are_not_uses() {
        let src =
            "{p}: let\n  inherit (p) a b;\nin {\n  a = p.b;\n  # b in a comment\n  s = \"b\";\n}\n";
        assert_eq!(
            unused_let_inherits(src),
            vec![("a".to_owned(), 2), ("b".to_owned(), 2)]
        );
    }

    #[test]
    fn an_attribute_set_inherit_binds_nothing() {
        let src = "{t}: {\n  inherit (t) craneLib;\n  x = f {inherit (t) y;};\n}\n";
        assert!(unused_let_inherits(src).is_empty());
    }
}
