//! The harness's shape, read from its sources: no check is told apart by its name (what a
//! check does is a typed fact of its `Def`), and no two files of a crate take names from each
//! other, directly or around a circle (a parent module's use of its own children is the
//! module tree, not a circle).

use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path (`["check", "arith"]`; the crate root is empty) and its source.
type Sources = BTreeMap<Vec<String>, String>;

fn crate_sources(dir: &str) -> Sources {
    fn walk(root: &Path, dir: &Path, out: &mut Sources) {
        for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else if path.extension().is_some_and(|x| x == "rs") {
                let rel = path.strip_prefix(root).unwrap().with_extension("");
                let mut parts: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if parts.first().is_some_and(|p| p == "bin") {
                    continue;
                }
                if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
                    parts.pop();
                }
                out.insert(parts, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut out = Sources::new();
    walk(&root, &root, &mut out);
    assert!(
        out.len() > 10,
        "read {}: {} files",
        root.display(),
        out.len()
    );
    out
}

/// Without `//` comments (doc comments name modules in prose and links).
fn code(src: &str) -> String {
    src.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Which module files each module file takes names from, through `crate::`, `super::`,
/// `self::` or a child module's name; the longest module prefix of each path is the file.
/// Edges to the module's own descendants are left out (the module tree).
fn imports(sources: &Sources) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let resolve = |path: &[String]| -> Option<Vec<String>> {
        (0..=path.len())
            .rev()
            .map(|i| path[..i].to_vec())
            .find(|p| sources.contains_key(p))
    };
    let mut edges = BTreeMap::new();
    for (m, src) in sources {
        let kids: Vec<&str> = sources
            .keys()
            .filter(|k| k.len() == m.len() + 1 && k.starts_with(m))
            .map(|k| k[m.len()].as_str())
            .collect();
        let heads = ["crate", "super", "self"]
            .into_iter()
            .chain(kids.iter().copied())
            .collect::<Vec<_>>()
            .join("|");
        let re = Regex::new(&format!(
            r"(?:^|[^\w:])({heads})((?:::\w+)*)(::\{{[^;]*?\}})?"
        ))
        .unwrap();
        let mut to = BTreeSet::new();
        for c in re.captures_iter(&code(src)) {
            let head = &c[1];
            let mut segs: Vec<String> = c[2]
                .split("::")
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
            let mut base: Vec<String> = match head {
                "crate" => Vec::new(),
                "self" => m.clone(),
                "super" => {
                    let mut b = m[..m.len().saturating_sub(1)].to_vec();
                    while segs.first().is_some_and(|s| s == "super") {
                        segs.remove(0);
                        b.pop();
                    }
                    b
                }
                kid => {
                    segs.insert(0, kid.to_string());
                    m.clone()
                }
            };
            base.extend(segs);
            let mut paths = vec![base.clone()];
            if let Some(group) = c.get(3) {
                let inner = &group.as_str()[3..group.as_str().len() - 1];
                for item in inner.split(',') {
                    let first = item.trim().split("::").next().unwrap_or("").trim();
                    let first: String = first
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !first.is_empty() && first != "self" {
                        let mut p = base.clone();
                        p.push(first);
                        paths.push(p);
                    }
                }
            }
            for p in paths {
                if let Some(t) = resolve(&p)
                    && t != *m
                    && !t.starts_with(m)
                {
                    to.insert(t);
                }
            }
        }
        edges.insert(m.clone(), to);
    }
    edges
}

/// The circles: every strongly connected set of more than one file.
fn circles(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<String>> {
    let reach = |from: &Vec<String>| -> BTreeSet<Vec<String>> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(v) = todo.pop() {
            for w in &edges[&v] {
                if seen.insert(w.clone()) {
                    todo.push(w.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<_, _> = edges.keys().map(|m| (m.clone(), reach(m))).collect();
    let mut out: Vec<Vec<String>> = Vec::new();
    let mut placed = BTreeSet::new();
    for m in edges.keys() {
        if placed.contains(m) || !reaches[m].contains(m) {
            continue;
        }
        let set: Vec<Vec<String>> = reaches[m]
            .iter()
            .filter(|o| reaches[*o].contains(m))
            .cloned()
            .collect();
        placed.extend(set.iter().cloned());
        out.push(
            set.iter()
                .map(|p| {
                    if p.is_empty() {
                        "lib".into()
                    } else {
                        p.join("/")
                    }
                })
                .collect(),
        );
    }
    out
}

#[test]
fn no_file_of_a_crate_takes_names_around_a_circle() {
    for dir in ["src", "../mldsa/src"] {
        let found = circles(&imports(&crate_sources(dir)));
        assert!(found.is_empty(), "{dir}: import circles {found:?}");
    }
}

#[test]
fn the_circle_finder_finds_a_planted_circle() {
    let mut s = Sources::new();
    s.insert(vec![], "pub mod a;\npub mod b;\npub mod c;\n".into());
    s.insert(vec!["a".into()], "use crate::b::x;\n".into());
    s.insert(vec!["b".into()], "use super::c::{y, z};\n".into());
    s.insert(vec!["c".into()], "fn f() { crate::a::w(); }\n".into());
    assert_eq!(circles(&imports(&s)), vec![vec!["a", "b", "c"]]);
    // Broken by dropping one edge; a parent using its child is not a circle.
    s.insert(vec!["c".into()], "// crate::a::w()\nfn f() {}\n".into());
    s.insert(
        vec![],
        "pub mod a;\npub mod b;\npub mod c;\nuse a::w;\n".into(),
    );
    assert!(circles(&imports(&s)).is_empty());
}

/// Lines of `sources` that tell a check apart by its name.
fn name_dispatch(sources: &Sources) -> Vec<String> {
    // A check name as written in its `Def` (with a variant placeholder) compared or matched.
    let templated = r#""[a-z0-9_]*\{(?:set|l|g2|eta|g1)\}[a-z0-9_]*""#;
    let compared = Regex::new(&format!(
        r"(?:==|!=)\s*{templated}|{templated}\s*(?:==|!=|=>|\|)"
    ))
    .unwrap();
    let mut found = Vec::new();
    for (m, src) in sources {
        let file = m.join("/");
        for (i, line) in code(src).lines().enumerate() {
            // A `Def`'s name is read only where checks are named (check/def.rs).
            let reads_name = line.contains("def.name") && file != "check/def";
            if reads_name || compared.is_match(line) {
                found.push(format!("{file}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn no_check_is_told_apart_by_its_name() {
    let found = name_dispatch(&crate_sources("src"));
    assert!(found.is_empty(), "dispatch on a check's name: {found:#?}");
}

#[test]
fn the_name_dispatch_finder_finds_planted_dispatch() {
    let mut s = Sources::new();
    s.insert(
        vec!["check".into(), "arith".into()],
        "match check.def.name {\n    \"decompose_{g2}\" | \"use_hint_{g2}\" => 1,\n}\n".into(),
    );
    s.insert(
        vec!["vectors".into()],
        "let x = if name == \"verify_{set}\" { 1 } else { 2 };\n".into(),
    );
    assert_eq!(name_dispatch(&s).len(), 3, "{:?}", name_dispatch(&s));
}
