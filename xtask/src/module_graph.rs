//! The file graph of a crate's sources (`cargo xtask module-graph`): which file uses
//! items defined in which, and the circles among them.
//!
//! A file *uses* another when a path in it names an item defined there: a private
//! `use`, or a path in code that starts with `crate`, `self`, `super` or a name the
//! module binds; a `macro_rules!` macro it invokes counts too, and the paths inside
//! macro bodies are read as tokens. Re-exports (`pub use`, `pub(crate) use`) and
//! `mod` declarations lay a module out and are not uses by themselves: a path
//! through a re-export resolves to the file that defines the item. Items under
//! `#[cfg(test)]` are left out (tests may use anything), as are paths into other
//! crates.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// One module: the file it is written in, its children, its names.
#[derive(Default)]
struct Module {
    file: usize,
    parent: Option<usize>,
    children: BTreeMap<String, usize>,
    /// Names bound by `use` (any visibility): name → (module it is relative to, path).
    bindings: BTreeMap<String, (usize, Vec<String>)>,
    globs: Vec<(usize, Vec<String>)>,
    /// Items defined here (types, functions, traits, consts, statics, macros).
    items: BTreeSet<String>,
}

/// The crate's files and the uses between them.
pub struct Graph {
    /// Files relative to the source folder, in the order they were read.
    pub files: Vec<String>,
    /// `edges[a]`: the files that file `a` uses.
    pub edges: Vec<BTreeSet<usize>>,
}

/// A path found in a file, to resolve once every module is known.
struct Use {
    file: usize,
    module: usize,
    segs: Vec<String>,
}

#[derive(Default)]
struct Reader {
    src: PathBuf,
    files: Vec<String>,
    modules: Vec<Module>,
    uses: Vec<Use>,
    /// `macro_rules!` name → the file defining it.
    macros: BTreeMap<String, usize>,
    /// Macro invocations: (file, name).
    invocations: Vec<(usize, String)>,
}

/// The value of a `#[path = "…"]` attribute.
fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

/// `p` with `a/../` folded away (lexically; a leading `..` stays).
fn lexical(p: &Path) -> PathBuf {
    let mut out: Vec<std::path::Component> = Vec::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir
                if out
                    .last()
                    .is_some_and(|l| matches!(l, std::path::Component::Normal(_))) =>
            {
                out.pop();
            }
            std::path::Component::CurDir => {}
            c => out.push(c),
        }
    }
    out.iter().collect()
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| match &a.meta {
        syn::Meta::List(l) if l.path.is_ident("cfg") => {
            let t = l.tokens.to_string();
            t.split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|w| w == "test")
                && !t.contains("not")
        }
        _ => false,
    })
}

fn is_public(vis: &syn::Visibility) -> bool {
    !matches!(vis, syn::Visibility::Inherited)
}

/// Flattens a `use` tree into (bound name, path) pairs and glob paths.
fn use_paths(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Option<String>, Vec<String>)>,
) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_paths(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            if name == "self" {
                let bound = prefix.last().cloned();
                out.push((bound, prefix.clone()));
            } else {
                let mut p = prefix.clone();
                p.push(name.clone());
                out.push((Some(name), p));
            }
        }
        syn::UseTree::Rename(r) => {
            let mut p = prefix.clone();
            p.push(r.ident.to_string());
            out.push((Some(r.rename.to_string()), p));
        }
        syn::UseTree::Glob(_) => {
            let mut p = prefix.clone();
            p.push("*".into());
            out.push((None, p));
        }
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_paths(t, prefix, out);
            }
        }
    }
}

/// Paths written as tokens (`crate :: a :: b`, `super :: x`, `name :: y`) in a
/// macro's body or arguments.
fn token_paths(ts: TokenStream, out: &mut Vec<Vec<String>>) {
    let tokens: Vec<TokenTree> = ts.into_iter().collect();
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Group(g) => token_paths(g.stream(), out),
            TokenTree::Ident(id) => {
                let mut segs = vec![id.to_string()];
                let mut j = i + 1;
                while j + 2 < tokens.len()
                    && matches!(&tokens[j], TokenTree::Punct(p) if p.as_char() == ':')
                    && matches!(&tokens[j + 1], TokenTree::Punct(p) if p.as_char() == ':')
                {
                    match &tokens[j + 2] {
                        TokenTree::Ident(next) => {
                            segs.push(next.to_string());
                            j += 3;
                        }
                        _ => break,
                    }
                }
                out.push(segs);
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
}

/// Collects the paths and macro invocations of the code of one module.
struct Paths<'a> {
    paths: &'a mut Vec<Vec<String>>,
    macros: &'a mut Vec<String>,
}

impl<'ast> Visit<'ast> for Paths<'_> {
    fn visit_path(&mut self, p: &'ast syn::Path) {
        self.paths
            .push(p.segments.iter().map(|s| s.ident.to_string()).collect());
        syn::visit::visit_path(self, p);
    }
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        if let Some(last) = m.path.segments.last() {
            self.macros.push(last.ident.to_string());
        }
        token_paths(m.tokens.clone(), self.paths);
    }
    // Attributes name attributes (`derive`, `inline`, `cfg`), not items.
    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}
    fn visit_item_mod(&mut self, _: &'ast syn::ItemMod) {}
    fn visit_item_use(&mut self, _: &'ast syn::ItemUse) {}
}

impl Reader {
    fn read_file(&mut self, rel: &Path, parent: Option<usize>) -> Result<usize, String> {
        let path = self.src.join(rel);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let ast =
            syn::parse_file(&text).map_err(|e| format!("cannot parse {}: {e}", path.display()))?;
        let file = self.files.len();
        self.files.push(rel.to_string_lossy().replace('\\', "/"));
        // The folder a child `mod x;` is looked for in.
        let stem = rel.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        // A crate root (no parent) is read as mod.rs is: its children beside it.
        let dir = match stem {
            _ if parent.is_none() => rel.parent().map(Path::to_owned).unwrap_or_default(),
            "lib" | "main" | "mod" => rel.parent().map(Path::to_owned).unwrap_or_default(),
            _ => rel.with_extension(""),
        };
        self.module(file, parent, &dir, &ast.items)
    }

    fn module(
        &mut self,
        file: usize,
        parent: Option<usize>,
        dir: &Path,
        items: &[syn::Item],
    ) -> Result<usize, String> {
        let m = self.modules.len();
        self.modules.push(Module {
            file,
            parent,
            ..Module::default()
        });
        let mut paths = Vec::new();
        let mut macros = Vec::new();
        for item in items {
            let attrs: &[syn::Attribute] = match item {
                syn::Item::Const(i) => &i.attrs,
                syn::Item::Enum(i) => &i.attrs,
                syn::Item::Fn(i) => &i.attrs,
                syn::Item::Impl(i) => &i.attrs,
                syn::Item::Macro(i) => &i.attrs,
                syn::Item::Mod(i) => &i.attrs,
                syn::Item::Static(i) => &i.attrs,
                syn::Item::Struct(i) => &i.attrs,
                syn::Item::Trait(i) => &i.attrs,
                syn::Item::Type(i) => &i.attrs,
                syn::Item::Union(i) => &i.attrs,
                syn::Item::Use(i) => &i.attrs,
                _ => &[],
            };
            if is_test_only(attrs) {
                continue;
            }
            let name = match item {
                syn::Item::Const(i) => Some(i.ident.to_string()),
                syn::Item::Enum(i) => Some(i.ident.to_string()),
                syn::Item::Fn(i) => Some(i.sig.ident.to_string()),
                syn::Item::Static(i) => Some(i.ident.to_string()),
                syn::Item::Struct(i) => Some(i.ident.to_string()),
                syn::Item::Trait(i) => Some(i.ident.to_string()),
                syn::Item::Type(i) => Some(i.ident.to_string()),
                syn::Item::Union(i) => Some(i.ident.to_string()),
                syn::Item::Macro(i) => i.ident.as_ref().map(|id| {
                    self.macros.insert(id.to_string(), file);
                    id.to_string()
                }),
                _ => None,
            };
            if let Some(n) = name {
                self.modules[m].items.insert(n);
            }
            match item {
                syn::Item::Mod(md) => {
                    let child = match &md.content {
                        Some((_, inner)) => self.module(file, Some(m), dir, inner)?,
                        None if path_attr(&md.attrs).is_some() => {
                            // #[path = "…"]: relative to the declaring file's folder.
                            let here = Path::new(&self.files[file])
                                .parent()
                                .unwrap_or(Path::new(""));
                            let rel = lexical(&here.join(path_attr(&md.attrs).unwrap_or_default()));
                            self.read_file(&rel, Some(m))?
                        }
                        None => {
                            let n = md.ident.to_string();
                            let flat = dir.join(format!("{n}.rs"));
                            let rel = if self.src.join(&flat).exists() {
                                flat
                            } else {
                                dir.join(&n).join("mod.rs")
                            };
                            self.read_file(&rel, Some(m))?
                        }
                    };
                    self.modules[m].children.insert(md.ident.to_string(), child);
                }
                syn::Item::Use(u) => {
                    let mut found = Vec::new();
                    use_paths(&u.tree, &mut Vec::new(), &mut found);
                    for (bound, path) in found {
                        if !is_public(&u.vis) {
                            paths.push(path.clone());
                        }
                        match bound {
                            Some(n) => {
                                self.modules[m].bindings.insert(n, (m, path));
                            }
                            None => {
                                let module = path[..path.len() - 1].to_vec();
                                self.modules[m].globs.push((m, module));
                            }
                        }
                    }
                }
                syn::Item::Macro(mac) => {
                    // A macro_rules! body: the paths its expansions will name.
                    token_paths(mac.mac.tokens.clone(), &mut paths);
                    if mac.ident.is_none() {
                        Paths {
                            paths: &mut paths,
                            macros: &mut macros,
                        }
                        .visit_item_macro(mac);
                    }
                }
                other => Paths {
                    paths: &mut paths,
                    macros: &mut macros,
                }
                .visit_item(other),
            }
        }
        self.uses.extend(paths.into_iter().map(|segs| Use {
            file,
            module: m,
            segs,
        }));
        self.invocations
            .extend(macros.into_iter().map(|name| (file, name)));
        Ok(m)
    }

    /// Whether module `m` knows `name` as its own: a child, an item or a binding.
    fn knows(&self, m: usize, name: &str) -> bool {
        let md = &self.modules[m];
        md.children.contains_key(name) || md.items.contains(name) || md.bindings.contains_key(name)
    }

    /// The file that defines what `segs` (written in module `m`) names; `None` for
    /// other crates, local names and generic parameters.
    fn resolve(&self, mut m: usize, segs: &[String], depth: usize) -> Option<usize> {
        // `crate`, `self` or `super` alone is a visibility (`pub(crate)`), not a use.
        if depth > 32
            || segs.len() < 2
                && matches!(
                    segs.first().map(String::as_str),
                    None | Some("crate" | "self" | "super")
                )
        {
            return None;
        }
        let mut i = 0;
        match segs[0].as_str() {
            "crate" => {
                m = 0;
                i = 1;
            }
            "self" => i = 1,
            "super" => {
                while segs.get(i).map(String::as_str) == Some("super") {
                    m = self.modules[m].parent?;
                    i += 1;
                }
            }
            first if !self.knows(m, first) => return None,
            _ => {}
        }
        let lone = segs.len() == 1;
        while let Some(s) = segs.get(i) {
            let md = &self.modules[m];
            if s == "*" {
                return Some(md.file);
            }
            if let Some(&c) = md.children.get(s) {
                m = c;
                i += 1;
                // A lone name that is a module is a local variable (`params`): a
                // module is not a value.
                if lone {
                    return None;
                }
                continue;
            }
            if md.items.contains(s) {
                return Some(md.file);
            }
            if let Some((bm, target)) = md.bindings.get(s) {
                let full: Vec<String> = target.iter().chain(&segs[i + 1..]).cloned().collect();
                return self.resolve(*bm, &full, depth + 1);
            }
            for (gm, target) in &md.globs {
                let full: Vec<String> = target.iter().chain(&segs[i..]).cloned().collect();
                if let Some(f) = self.resolve(*gm, &full, depth + 1) {
                    return Some(f);
                }
            }
            // Not declared in the module's text: an item a macro defines there.
            return Some(md.file);
        }
        Some(self.modules[m].file)
    }
}

impl Graph {
    /// Reads the crate whose root file is `src/ROOT` (`lib.rs` or `main.rs`).
    pub fn read(src: &Path, root: &str) -> Result<Graph, String> {
        let mut r = Reader {
            src: src.to_owned(),
            ..Reader::default()
        };
        r.read_file(Path::new(root), None)?;
        let mut edges = vec![BTreeSet::new(); r.files.len()];
        for u in &r.uses {
            if let Some(to) = r.resolve(u.module, &u.segs, 0) {
                if to != u.file {
                    edges[u.file].insert(to);
                }
            }
        }
        for (file, name) in &r.invocations {
            if let Some(&to) = r.macros.get(name) {
                if to != *file {
                    edges[*file].insert(to);
                }
            }
        }
        Ok(Graph {
            files: r.files,
            edges,
        })
    }

    /// The circles: each group of files that reach one another (Tarjan's strongly
    /// connected components of more than one file), as file indices.
    pub fn circles(&self) -> Vec<Vec<usize>> {
        struct Tarjan<'a> {
            g: &'a Graph,
            index: Vec<Option<usize>>,
            low: Vec<usize>,
            on: Vec<bool>,
            stack: Vec<usize>,
            next: usize,
            out: Vec<Vec<usize>>,
        }
        impl Tarjan<'_> {
            fn visit(&mut self, v: usize) {
                self.index[v] = Some(self.next);
                self.low[v] = self.next;
                self.next += 1;
                self.stack.push(v);
                self.on[v] = true;
                for &w in &self.g.edges[v] {
                    match self.index[w] {
                        None => {
                            self.visit(w);
                            self.low[v] = self.low[v].min(self.low[w]);
                        }
                        Some(iw) if self.on[w] => self.low[v] = self.low[v].min(iw),
                        Some(_) => {}
                    }
                }
                if Some(self.low[v]) == self.index[v] {
                    let mut comp = Vec::new();
                    while let Some(w) = self.stack.pop() {
                        self.on[w] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    if comp.len() > 1 {
                        comp.sort_unstable();
                        self.out.push(comp);
                    }
                }
            }
        }
        let n = self.files.len();
        let mut t = Tarjan {
            g: self,
            index: vec![None; n],
            low: vec![0; n],
            on: vec![false; n],
            stack: Vec::new(),
            next: 0,
            out: Vec::new(),
        };
        for v in 0..n {
            if t.index[v].is_none() {
                t.visit(v);
            }
        }
        t.out
    }

    /// One file per line with the files it uses.
    pub fn text(&self) -> String {
        let mut s = String::new();
        for (a, to) in self.edges.iter().enumerate() {
            let names: Vec<&str> = to.iter().map(|&b| self.files[b].as_str()).collect();
            let _ = writeln!(s, "{} -> {}", self.files[a], names.join(", "));
        }
        s
    }

    /// The graph in Graphviz's `dot` language.
    pub fn dot(&self) -> String {
        let mut s = String::from("digraph modules {\n  rankdir=BT;\n  node [shape=box];\n");
        for (a, to) in self.edges.iter().enumerate() {
            for &b in to {
                let _ = writeln!(s, "  \"{}\" -> \"{}\";", self.files[a], self.files[b]);
            }
        }
        s + "}\n"
    }
}

/// The usage of `module-graph`.
pub const USAGE: &str = "usage: cargo xtask module-graph [--dot] [SRC]   (the files of the crate at SRC (default poseidon/src) and the files each uses; fails on a circle)
       cargo xtask module-graph --all           (every crate root of the workspace: libraries, binaries, benches, examples, tests, build scripts)";

/// Every crate root of the workspace's members, as (folder, root file): each
/// member's `src/lib.rs`, `src/main.rs`, `src/bin/*.rs`, `build.rs`, and the
/// files directly in `benches/`, `examples/` and `tests/`.
pub fn crate_roots(root: &Path) -> Result<Vec<(PathBuf, String)>, String> {
    let manifest =
        std::fs::read_to_string(root.join("Cargo.toml")).map_err(|e| format!("Cargo.toml: {e}"))?;
    let members = manifest
        .lines()
        .find_map(|l| l.trim().strip_prefix("members = ["))
        .ok_or("Cargo.toml: no members = [...] line")?;
    let mut out = Vec::new();
    for m in members.trim_end_matches(']').split(',') {
        let m = m.trim().trim_matches('"');
        if m.is_empty() {
            continue;
        }
        let dir = root.join(m);
        for (sub, names) in [("src", &["lib.rs", "main.rs"][..]), ("", &["build.rs"][..])] {
            for n in names {
                if dir.join(sub).join(n).is_file() {
                    out.push((dir.join(sub), (*n).to_owned()));
                }
            }
        }
        for sub in ["src/bin", "benches", "examples", "tests"] {
            let mut files: Vec<String> = std::fs::read_dir(dir.join(sub))
                .into_iter()
                .flatten()
                .flatten()
                .filter(|e| e.path().is_file())
                .filter_map(|e| e.file_name().to_str().map(str::to_owned))
                .filter(|n| n.ends_with(".rs"))
                .collect();
            files.sort();
            out.extend(files.into_iter().map(|f| (dir.join(sub), f)));
        }
    }
    Ok(out)
}

/// `module-graph [--dot] [SRC]` or `--all`: prints the graph (or, with `--all`,
/// one line per crate root); Ok(false) when files use one another in a circle.
pub fn task(root: &Path, args: &[String]) -> Result<bool, String> {
    let mut dot = false;
    let mut src = root.join("poseidon/src");
    for a in args {
        match a.as_str() {
            "-h" | "--help" => return Err(String::new()),
            "--dot" => dot = true,
            "--all" => return all(root),
            s if !s.starts_with('-') => src = PathBuf::from(s),
            s => return Err(format!("unknown option {s}")),
        }
    }
    let root_file = if src.join("lib.rs").exists() {
        "lib.rs"
    } else {
        "main.rs"
    };
    let g = Graph::read(&src, root_file)?;
    print!("{}", if dot { g.dot() } else { g.text() });
    let circles = g.circles();
    for c in &circles {
        let names: Vec<&str> = c.iter().map(|&f| g.files[f].as_str()).collect();
        eprintln!("circle: {}", names.join(" <-> "));
    }
    if circles.is_empty() {
        eprintln!("{} files, no circle", g.files.len());
    }
    Ok(circles.is_empty())
}

/// The relative module specifiers a JavaScript file imports: `import … from
/// "./x.js"`, `export … from "./x.js"`, `import "./x.js"`, `import("./x.js")`.
pub fn js_imports(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for key in ["from", "import", "import("] {
        let mut at = 0;
        while let Some(i) = text[at..].find(key) {
            let start = at + i;
            at = start + key.len();
            let before = text[..start].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
                continue;
            }
            let rest = text[at..].trim_start();
            let Some(q) = rest.chars().next().filter(|c| *c == '"' || *c == '\'') else {
                continue;
            };
            if let Some(end) = rest[1..].find(q) {
                let spec = &rest[1..=end];
                if spec.starts_with("./") || spec.starts_with("../") {
                    out.push(spec.to_owned());
                }
            }
        }
    }
    out
}

/// The JavaScript package's import graph: every `*.js` and `*.mjs` under `dir`
/// (node_modules left out) and the relative imports between them.
pub fn js_graph(dir: &Path) -> Result<Graph, String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() && p.file_name().is_some_and(|n| n != "node_modules") {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "js" || x == "mjs") {
                out.push(p);
            }
        }
    }
    let mut paths = Vec::new();
    walk(dir, &mut paths);
    paths.sort();
    let files: Vec<String> = paths
        .iter()
        .map(|p| p.strip_prefix(dir).unwrap_or(p).display().to_string())
        .collect();
    let mut edges = vec![BTreeSet::new(); files.len()];
    for (i, p) in paths.iter().enumerate() {
        let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
        for spec in js_imports(&text) {
            let target = lexical(
                &Path::new(&files[i])
                    .parent()
                    .unwrap_or(Path::new(""))
                    .join(&spec),
            );
            if let Some(j) = files.iter().position(|f| Path::new(f) == target) {
                if j != i {
                    edges[i].insert(j);
                }
            }
        }
    }
    Ok(Graph { files, edges })
}

/// `--all`: every crate root and the JavaScript package, file counts and circles.
fn all(root: &Path) -> Result<bool, String> {
    let (mut files, mut bad, mut clean) = (0, 0, 0);
    let roots = crate_roots(root)?;
    let mut graphs = Vec::new();
    for (dir, file) in &roots {
        graphs.push((dir.join(file), Graph::read(dir, file)?));
    }
    graphs.push((root.join("js"), js_graph(&root.join("js"))?));
    for (rel, g) in &graphs {
        let rel = rel.strip_prefix(root).unwrap_or(rel).display().to_string();
        let circles = g.circles();
        println!("{rel}: {} files, {} circles", g.files.len(), circles.len());
        for c in &circles {
            let names: Vec<&str> = c.iter().map(|&f| g.files[f].as_str()).collect();
            println!("  circle: {}", names.join(" <-> "));
        }
        files += g.files.len();
        bad += circles.len();
        clean += usize::from(circles.is_empty());
    }
    println!(
        "{} crate roots and the JavaScript package: {files} files, {bad} circles",
        roots.len()
    );
    println!("{clean} passed, {} failed", graphs.len() - clean);
    Ok(bad == 0)
}
