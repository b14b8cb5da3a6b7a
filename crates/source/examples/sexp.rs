use std::io::Read;
fn main() {
    let lang = std::env::args().nth(1).unwrap();
    let mut src = Vec::new();
    std::io::stdin().read_to_end(&mut src).unwrap();
    let l: tree_sitter::Language = match lang.as_str() {
        "ts" => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        "tsx" => tree_sitter_typescript::LANGUAGE_TSX.into(),
        "js" => tree_sitter_javascript::LANGUAGE.into(),
        "rs" => tree_sitter_rust::LANGUAGE.into(),
        "py" => tree_sitter_python::LANGUAGE.into(),
        "go" => tree_sitter_go::LANGUAGE.into(),
        _ => panic!(),
    };
    let mut p = tree_sitter::Parser::new();
    p.set_language(&l).unwrap();
    let t = p.parse(&src, None).unwrap();
    print(t.root_node(), &src, 0, None);
}
fn print(n: tree_sitter::Node, src: &[u8], d: usize, field: Option<&str>) {
    let txt = if n.child_count() == 0 {
        format!(" {:?}", String::from_utf8_lossy(&src[n.byte_range()]))
    } else {
        String::new()
    };
    println!(
        "{}{}{}{}{} @{}",
        "  ".repeat(d),
        field.map(|f| format!("{f}: ")).unwrap_or_default(),
        if n.is_missing() { "MISSING " } else { "" },
        n.kind(),
        txt,
        n.start_position().row + 1
    );
    let mut c = n.walk();
    if c.goto_first_child() {
        loop {
            let f = c.field_name();
            print(c.node(), src, d + 1, f);
            if !c.goto_next_sibling() {
                break;
            }
        }
    }
}
