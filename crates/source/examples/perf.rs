use doc_bridge_source::*;
use std::time::Instant;
fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().unwrap())
        .unwrap_or(1_000_000);
    let mut rng = 12345u64;
    let mut junk = Vec::with_capacity(n);
    for _ in 0..n {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        junk.push(rng as u8);
    }
    let inputs: Vec<(&str, Vec<u8>)> = vec![
        ("open-parens", "(".repeat(n).into_bytes()),
        ("open-braces", "{".repeat(n).into_bytes()),
        ("open-brackets", "[".repeat(n).into_bytes()),
        (
            "nested-balanced",
            format!("{}{}", "[".repeat(n / 2), "]".repeat(n / 2)).into_bytes(),
        ),
        ("junk", junk),
        ("quotes", "'\"`".repeat(n / 3).into_bytes()),
        (
            "indent",
            (0..n / 100)
                .map(|i| format!("{}if x:\n", " ".repeat(i % 80)))
                .collect::<String>()
                .into_bytes(),
        ),
        (
            "many-lines",
            "export const a = 1;\nuse a::b;\nimport x\n"
                .repeat(n / 40)
                .into_bytes(),
        ),
    ];
    for (name, input) in &inputs {
        for lang in Language::ALL {
            let t = Instant::now();
            let f = analyze(lang, input);
            println!(
                "{name:16} {:10} {:>8.2}s errs={} syms={} imps={}",
                lang.name(),
                t.elapsed().as_secs_f64(),
                f.syntax_error_count,
                f.symbols.len(),
                f.imports.len()
            );
        }
    }
}
