use doc_bridge_source::*;
use std::time::Instant;
fn deep(open: &str, close: &str, depth: usize) -> String {
    format!("{}{}", open.repeat(depth), close.repeat(depth))
}

fn main() {
    let depth: usize = std::env::args().nth(1).unwrap().parse().unwrap();
    let sources = [
        deep("(", ")", depth),
        deep("[", "]", depth),
        deep("{", "}", depth),
        deep("(", "", depth),
        format!("export const x = {};", deep("[", "]", depth)),
        format!("export const {} = o;", deep("{a: ", "}", depth)),
        format!("a = {}1;", "b = ".repeat(depth)),
        format!("module.exports = {}1;", "exports.x = ".repeat(depth)),
        deep("pub mod m { ", "}", depth),
        deep("namespace N { ", "}", depth),
        format!("pub use a::{}x{};", "{b::".repeat(depth), "}".repeat(depth)),
        format!("use {};", vec!["a"; depth].join("::")),
        (0..200)
            .map(|i| format!("{}if x:\n", " ".repeat(i)))
            .collect::<String>(),
        format!("__all__ = {}", deep("(", ")", depth)),
        format!("package p\nvar X = {}", deep("(", ")", depth)),
    ];
    for (i, source) in sources.iter().enumerate() {
        for language in Language::ALL {
            let t = Instant::now();
            let f = analyze(language, source.as_bytes());
            let e = t.elapsed().as_secs_f64();
            if e > 0.1 {
                println!("{i} {} {e:.2}s {}", language.name(), f.symbols.len());
            }
        }
    }
}
