//! What a Markdown link names in the repository, the way documentation sites serve pages:
//! `./server-options` is `server-options.md`, `./guide/` is `guide/index.md` or
//! `guide/README.md`, `./page.html` is `page.md`, and `/guide/intro` is `guide/intro.md` below
//! one of the site roots ([`crate::sites`]). Template placeholders (`{{RUN_URL}}`) name
//! nothing and are not links to check.
//!
//! Pure: the tree is asked through two lookups, so the rules are tested without files.

use std::collections::BTreeMap;

use doc_bridge_model::RelPath;

use crate::documents::{is_locale, locale_folder};
use crate::sites::SiteRoot;

/// Page files a directory link names, in the order tried.
const INDEX_PAGES: &[&str] = &[
    "index.md",
    "index.mdx",
    "README.md",
    "readme.md",
    "_index.md",
    "index.rst",
    "index.adoc",
    "README.rst",
    "README.adoc",
];

/// Extensions a page link may leave out (or replace with `.html`), in the order tried: a
/// Sphinx document name (`:doc:`intro``, a `toctree` entry) leaves out `.rst`; a notebook is a
/// page of the sites that render them (nbsphinx, myst-nb, Jupyter Book, mkdocs-jupyter). A
/// `.txt` file is a page only where [`Tree::is_text_page`] says so, tried after these.
const PAGE_EXTENSIONS: &[&str] = &["md", "mdx", "markdown", "rst", "adoc", "asciidoc", "ipynb"];

/// Markers of a template placeholder in a link target (Mustache/Handlebars/Jinja/Liquid `{{ }}`
/// and `{% %}`, ERB/EJS `<% %>`, shell and JavaScript `${ }`).
const PLACEHOLDER_MARKERS: &[&str] = &["{{", "}}", "{%", "%}", "<%", "%>", "${"];

/// The lookups resolution needs.
pub struct Tree<'a> {
    /// Whether a file of the walk has this path.
    pub is_file: &'a dyn Fn(&RelPath) -> bool,
    /// Whether a directory of the walk has this path.
    pub is_dir: &'a dyn Fn(&RelPath) -> bool,
    /// The page this path names once a number prefix is put before its file name
    /// (`a/intro.md` → `a/01-intro.md`, [`numbered_pages`]).
    pub numbered: &'a dyn Fn(&RelPath) -> Option<RelPath>,
    /// Whether this `.txt` file is a page (reStructuredText in a Sphinx source directory).
    pub is_text_page: &'a dyn Fn(&RelPath) -> bool,
}

/// For a link from a translated page (`docs/es/docs/help.md`, a locale folder on its path as
/// [`locale_folder`] finds it)
/// to `resolved` inside the same locale directory (`docs/es/docs/newsletter.md`), the same
/// path in the default locale `en` (`docs/en/docs/newsletter.md`): translated sites serve a
/// page not yet translated from the default language. `None` when the document is in no
/// locale directory, already in `en`, or the link leaves its locale directory.
pub fn default_locale_path(document: &RelPath, resolved: &RelPath) -> Option<RelPath> {
    let at = locale_folder(document)?;
    let doc: Vec<&str> = document.as_str().split('/').collect();
    let target: Vec<&str> = resolved.as_str().split('/').collect();
    if doc[at].eq_ignore_ascii_case("en") || target.len() <= at || target[..=at] != doc[..=at] {
        return None;
    }
    let mut path = target;
    path[at] = "en";
    RelPath::new(&path.join("/"))
}

/// The files a link to `path` may stand for, to ask the disk about when the walk has none of
/// them (a page the walk left out, as a secret-looking name or an ignored file): the path, its
/// page files, its directory's index pages.
pub fn page_files(path: &RelPath) -> Vec<RelPath> {
    let mut files = vec![path.clone()];
    if !path.is_root() {
        files.extend(
            PAGE_EXTENSIONS
                .iter()
                .filter_map(|ext| RelPath::new(&format!("{}.{ext}", path.as_str()))),
        );
    }
    files.extend(INDEX_PAGES.iter().filter_map(|name| path.join(name)));
    files
}

/// Whether a link target is a bare page name: no directory, no extension, no directory form
/// (`snippet`, `$effect`, `v5-migration-guide`).
pub fn is_bare_page_name(target: &str) -> bool {
    !target.is_empty() && !target.contains(['/', '\\', '.', '#', '?', ':'])
}

/// Every page by its bare name (file name without page extension and number prefix:
/// `02-runes/04-$effect.md` → `$effect`); `None` when several pages share the name. A bare link
/// that names nothing beside its document names the one page of that name anywhere in the
/// repository: sites built outside the repository (svelte.dev) serve their pages flat, by name.
pub fn pages_by_name<'a>(
    files: impl IntoIterator<Item = &'a str>,
) -> BTreeMap<String, Option<RelPath>> {
    let mut pages: BTreeMap<String, Option<RelPath>> = BTreeMap::new();
    for file in files {
        let Some(path) = RelPath::new(file) else {
            continue;
        };
        let Some(stem) = page_stem(path.file_name()) else {
            continue;
        };
        let stem = without_number_prefix(stem).unwrap_or(stem);
        if !is_bare_page_name(stem)
            || matches!(
                stem.to_ascii_lowercase().as_str(),
                "index" | "readme" | "_index"
            )
        {
            continue;
        }
        pages
            .entry(stem.to_owned())
            .and_modify(|page| *page = None)
            .or_insert(Some(path));
    }
    pages
}

/// A page file's stem (`01-intro.md` → `01-intro`); `None` for a file that is no page.
fn page_stem(name: &str) -> Option<&str> {
    PAGE_EXTENSIONS
        .iter()
        .find_map(|ext| name.strip_suffix(ext)?.strip_suffix('.'))
        .filter(|stem| !stem.is_empty())
}

/// Whether a document is a page of a numbered tree (`docs/01-introduction/02-getting-started.md`:
/// its name and its folder's both start with an order number), which sites built outside the
/// repository serve flat, by name without the numbers (svelte.dev's `/docs/svelte/getting-started`,
/// see [`pages_by_name`]).
pub fn in_numbered_tree(path: &RelPath) -> bool {
    page_stem(path.file_name()).is_some_and(|stem| without_number_prefix(stem).is_some())
        && without_number_prefix(path.parent().file_name()).is_some()
}

/// A stem without its number prefix (`01-intro`, `2_setup`, `10.faq` → `intro`, `setup`,
/// `faq`); `None` when it has none.
fn without_number_prefix(stem: &str) -> Option<&str> {
    let digits = stem.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    stem[digits..]
        .strip_prefix(['-', '_', '.'])
        .filter(|rest| !rest.is_empty() && !rest.starts_with('.'))
}

/// Pages whose file name starts with a number prefix (`01-intro.md`, `2_setup.mdx`,
/// `10.faq.md`), keyed by the path without it (`docs/intro.md`): Docusaurus and SvelteKit-built
/// sites order pages by such prefixes and serve them without (`./intro` links
/// `01-intro.md`). When two pages lose their prefix to the same name, the first in path order
/// keeps it.
pub fn numbered_pages<'a>(files: impl IntoIterator<Item = &'a str>) -> BTreeMap<RelPath, RelPath> {
    let mut pages = BTreeMap::new();
    for file in files {
        let Some(path) = RelPath::new(file) else {
            continue;
        };
        let name = path.file_name();
        let Some(stem) = page_stem(name) else {
            continue;
        };
        let Some(bare) = without_number_prefix(stem) else {
            continue;
        };
        // The name without its prefix, the extension kept (`01-intro.md` → `intro.md`).
        let rest = format!("{bare}{}", &name[stem.len()..]);
        if let Some(key) = path.parent().join(&rest) {
            pages.entry(key).or_insert(path);
        }
    }
    pages
}

/// What a link's path names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// A file: the page itself or the page the link stands for.
    File(RelPath),
    /// A directory with no index page.
    Directory(RelPath),
    /// Something the documentation generator makes at build time, which has no source in the
    /// tree (an image sphinx-gallery renders): no broken link, and no entity to link to.
    Generated,
}

/// Whether a document name matches a `toctree` glob as Sphinx matches them (`fnmatch`): `*`
/// any run of characters, `/` included; `?` one character; `[...]` a class (`[!...]` negated).
pub fn glob_matches(pattern: &str, name: &str) -> bool {
    let (pattern, name): (Vec<char>, Vec<char>) =
        (pattern.chars().collect(), name.chars().collect());
    // Iterative matching with one backtrack point for the last `*`: linear in practice,
    // quadratic at worst, never exponential.
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match pattern.get(p) {
            Some('*') => {
                star = Some((p, n));
                p += 1;
                continue;
            }
            Some('?') => {
                p += 1;
                n += 1;
                continue;
            }
            Some('[') => {
                if let Some((matched, next)) = class_matches(&pattern, p, name[n]) {
                    if matched {
                        p = next;
                        n += 1;
                        continue;
                    }
                } else if name[n] == '[' {
                    p += 1;
                    n += 1;
                    continue;
                }
            }
            Some(c) if *c == name[n] => {
                p += 1;
                n += 1;
                continue;
            }
            _ => {}
        }
        match star {
            Some((star_p, star_n)) => {
                p = star_p + 1;
                n = star_n + 1;
                star = Some((star_p, star_n + 1));
            }
            None => return false,
        }
    }
    pattern[p..].iter().all(|c| *c == '*')
}

/// Whether `c` is in the `[...]` class opening at `pattern[at]`, and where the class ends;
/// `None` for an unclosed `[` (a literal).
fn class_matches(pattern: &[char], at: usize, c: char) -> Option<(bool, usize)> {
    let mut i = at + 1;
    let negated = matches!(pattern.get(i), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut matched = false;
    let mut first = true;
    while let Some(&ch) = pattern.get(i) {
        if ch == ']' && !first {
            return Some((matched != negated, i + 1));
        }
        first = false;
        if pattern.get(i + 1) == Some(&'-') && pattern.get(i + 2).is_some_and(|e| *e != ']') {
            let end = pattern[i + 2];
            matched |= ch <= c && c <= end;
            i += 3;
        } else {
            matched |= ch == c;
            i += 1;
        }
    }
    None
}

/// Whether a link target is a template placeholder rather than a link (`{{RUN_URL}}`,
/// `{{ site.url }}/x`, `<%= url %>`, `${base}/a.md`). `<%= x %>` written as a pointy
/// destination reaches the analyzer without its brackets (`%= x %`), so that form counts too.
pub fn is_placeholder(target: &str) -> bool {
    PLACEHOLDER_MARKERS.iter().any(|m| target.contains(m))
        || (target.starts_with(['%']) && target.ends_with('%') && target.len() > 1)
        || is_constant_name(target)
        || target.strip_prefix('$').is_some_and(|name| {
            is_constant_name(name) || (!name.is_empty() && name.chars().all(char::is_uppercase))
        })
}

/// A target that is a constant's name (`ENGLISH_VERSION_URL`, `RUN_URL`): capitals, digits and
/// at least one `_`, a template's variable waiting to be replaced, not a file. With a `$`
/// before it (`$BRANCH_URL`, `$URL`), a shell or workflow variable.
fn is_constant_name(target: &str) -> bool {
    target.contains('_')
        && target.bytes().any(|b| b.is_ascii_uppercase())
        && target
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// The pages a forge serves beside a repository's files (`github.com/<owner>/<repo>/issues`).
const FORGE_PAGES: &[&str] = &[
    "actions",
    "commits",
    "compare",
    "contributors",
    "discussions",
    "graphs",
    "issues",
    "labels",
    "milestones",
    "network",
    "projects",
    "pulls",
    "pulse",
    "releases",
    "security",
    "stargazers",
    "tags",
    "wiki",
];

/// Whether a relative link that climbs out of the repository names a page of the forge that
/// shows the document: GitHub shows a file at `/<owner>/<repo>/blob/<branch>/<path>`, so from
/// a file `d` folders deep, `d + 2` steps up reach `/<owner>/<repo>/`, and the README's
/// `../../graphs/contributors` is the repository's contributors page.
pub fn is_forge_page(from: &RelPath, target: &str) -> bool {
    let mut ups = 0;
    let mut rest = target;
    while let Some(after) = rest.strip_prefix("../") {
        ups += 1;
        rest = after;
    }
    let page = rest.split(['/', '#', '?']).next().unwrap_or("");
    ups == from.parent().depth() + 2 && FORGE_PAGES.contains(&page)
}

/// Whether a link path names a directory by its form (`guide/`, `.`, `..`).
pub fn is_directory_form(path: &str) -> bool {
    path.ends_with('/')
        || matches!(path, "." | "..")
        || path.ends_with("/.")
        || path.ends_with("/..")
}

/// What `path` (repository-relative, already joined and normalised) names, trying in order:
/// the file itself; for `x.html`/`x.htm` the page `x.md` (`.mdx`, `.markdown`), and for
/// `index.html` the directory's index page; the page `path.md` (`.mdx`, `.markdown`); a
/// directory's index page ([`INDEX_PAGES`]), else the directory. A link with a directory form
/// (`guide/`) tries the directory first, then the page. `None` when nothing exists.
pub fn find(tree: &Tree<'_>, path: &RelPath, directory_form: bool) -> Option<Found> {
    if directory_form {
        return directory(tree, path).or_else(|| page(tree, path).map(Found::File));
    }
    if (tree.is_file)(path) {
        return Some(Found::File(path.clone()));
    }
    page(tree, path)
        .map(Found::File)
        .or_else(|| directory(tree, path))
}

/// The page a link to `path` stands for: its Markdown source for `.html`, or `path` with a
/// page extension.
fn page(tree: &Tree<'_>, path: &RelPath) -> Option<RelPath> {
    if path.is_root() {
        return None;
    }
    let text = path.as_str();
    let html_stem = [".html", ".htm"]
        .iter()
        .find_map(|ext| text.strip_suffix(ext));
    if let Some(stem) = html_stem {
        let index = matches!(path.file_name(), "index.html" | "index.htm");
        if let Some(page) = page_with_extension(tree, stem)
            .or_else(|| index.then(|| index_page(tree, &path.parent())).flatten())
        {
            return Some(page);
        }
    }
    page_with_extension(tree, text)
}

/// A directory's index page, else the directory; `None` when `path` is no directory.
fn directory(tree: &Tree<'_>, path: &RelPath) -> Option<Found> {
    if !(tree.is_dir)(path) {
        return None;
    }
    Some(match index_page(tree, path) {
        Some(page) => Found::File(page),
        None => Found::Directory(path.clone()),
    })
}

/// A site-absolute path (`/guide/intro`, as the analyzer gives it) under each root in turn,
/// the first that names something. A root with a prefix (`/docs/`) takes only paths below it.
/// `..` above a root stays at it, as a web server keeps a URL at its root.
pub fn find_site(tree: &Tree<'_>, roots: &[SiteRoot], site_path: &str) -> Option<Found> {
    site_candidates(roots, site_path)
        .find_map(|(path, directory_form)| find(tree, &path, directory_form))
}

/// The repository paths a site-absolute path stands for under each root, in order, each with
/// whether it has a directory form; a root with a locale fallback adds, after its own
/// candidate, the path in the default locale ([`locale_fallbacks`]).
pub fn site_candidates<'a>(
    roots: &'a [SiteRoot],
    site_path: &'a str,
) -> impl Iterator<Item = (RelPath, bool)> + 'a {
    let directory_form = is_directory_form(site_path);
    let normalized = normalized_url_path(site_path);
    roots.iter().flat_map(move |root| {
        let prefix = root.prefix.trim_matches('/');
        let rest = if prefix.is_empty() {
            Some(normalized.as_str())
        } else if normalized == prefix {
            Some("")
        } else {
            normalized
                .strip_prefix(prefix)
                .and_then(|r| r.strip_prefix('/'))
        };
        let mut candidates = Vec::new();
        if let Some(rest) = rest {
            let mut rests = vec![rest.to_owned()];
            if root.locale_fallback {
                rests.extend(locale_fallbacks(rest));
            }
            for rest in rests {
                let path = if rest.is_empty() {
                    Some(root.dir.clone())
                } else {
                    root.dir.join(&rest)
                };
                if let Some(path) = path {
                    candidates.push((path, directory_form || rest.is_empty()));
                }
            }
        }
        candidates
    })
}

/// For `<locale>/rest` with a locale first segment other than `en` (`pt-br`, `ja`, `zh-cn`,
/// [`is_locale`]): `en/rest`, then `rest` (Starlight's default locale at the root).
fn locale_fallbacks(rest: &str) -> Vec<String> {
    let Some((first, tail)) = rest.split_once('/') else {
        return Vec::new();
    };
    if first.eq_ignore_ascii_case("en") || !is_locale(first) {
        return Vec::new();
    }
    vec![format!("en/{tail}"), tail.to_owned()]
}

/// A URL path's segments with `.` and `..` applied, never above its start, without leading
/// and trailing `/` (`/a/./b/../c/` → `a/c`).
fn normalized_url_path(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts.join("/")
}

fn index_page(tree: &Tree<'_>, dir: &RelPath) -> Option<RelPath> {
    INDEX_PAGES
        .iter()
        .filter_map(|name| dir.join(name))
        .find(|page| (tree.is_file)(page))
        .or_else(|| {
            dir.join("index.txt")
                .filter(|page| (tree.is_text_page)(page))
        })
}

fn page_with_extension(tree: &Tree<'_>, stem: &str) -> Option<RelPath> {
    let candidates = || {
        PAGE_EXTENSIONS
            .iter()
            .filter_map(|ext| RelPath::new(&format!("{stem}.{ext}")))
    };
    candidates()
        .find(|page| (tree.is_file)(page))
        .or_else(|| RelPath::new(&format!("{stem}.txt")).filter(|page| (tree.is_text_page)(page)))
        .or_else(|| candidates().find_map(|page| (tree.numbered)(&page)))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use std::collections::BTreeSet;

    use super::*;
    use crate::sites::SiteRoots;

    fn p(s: &str) -> RelPath {
        RelPath::new(s).unwrap()
    }

    const FILES: &[&str] = &[
        "docs/server-options.md",
        "docs/guide/index.md",
        "docs/api/README.md",
        "docs/empty/image.png",
        "docs/page.md",
        "docs/comp.mdx",
        "docs/v1.2.md",
        "docs/both.md",
        "docs/both/index.md",
        "docs/static.html",
        "docs/legacy/index.md",
        "docs/runes/02-state.md",
        "docs/runes/03-derived.mdx",
        "docs/runes/10.effect.md",
        "docs/runes/01-state.md",
        "docs/runes/2024-notes.txt",
        "docs/examples/weather-data.ipynb",
        "README.md",
    ];

    /// A repository of `files` (their directories derived), asked as [`Tree`] asks.
    struct Repo {
        files: BTreeSet<RelPath>,
        dirs: BTreeSet<RelPath>,
        numbered: BTreeMap<RelPath, RelPath>,
    }

    impl Repo {
        fn new(files: &[&str]) -> Self {
            let files: BTreeSet<RelPath> = files.iter().map(|f| p(f)).collect();
            let mut dirs = BTreeSet::from([RelPath::root()]);
            for f in &files {
                let mut d = f.parent();
                while !d.is_root() {
                    dirs.insert(d.clone());
                    d = d.parent();
                }
            }
            let numbered = numbered_pages(files.iter().map(RelPath::as_str));
            Repo {
                files,
                dirs,
                numbered,
            }
        }

        /// `ask` with this repository as the tree.
        fn ask<R>(&self, ask: impl FnOnce(&Tree<'_>) -> R) -> R {
            let is_file = |path: &RelPath| self.files.contains(path);
            let is_dir = |path: &RelPath| self.dirs.contains(path);
            let numbered = |path: &RelPath| self.numbered.get(path).cloned();
            ask(&Tree {
                is_file: &is_file,
                is_dir: &is_dir,
                numbered: &numbered,
                is_text_page: &|_| false,
            })
        }

        /// The detected site roots, with a site configured by `config`, for `document`.
        fn site_roots(&self, config: &str, document: &str) -> Vec<SiteRoot> {
            let config = p(config);
            let mut listed: Vec<(&RelPath, Option<&crate::sites::SiteSettings>)> =
                self.files.iter().map(|f| (f, None)).collect();
            listed.push((&config, None));
            SiteRoots::detect(listed, &[], &self.dirs).for_document(&p(document))
        }
    }

    /// What was found, as a path (`dir:` for a directory).
    fn shown(found: Option<Found>) -> Option<String> {
        match found? {
            Found::File(f) => Some(f.as_str().to_owned()),
            Found::Directory(d) => Some(format!("dir:{d}")),
            Found::Generated => Some("generated".to_owned()),
        }
    }

    /// `find` over [`FILES`], answering with the path found (`dir:` for a directory).
    fn found(target: &str) -> Option<String> {
        let path = RelPath::join_normalized(&p("docs"), target)?;
        Repo::new(FILES).ask(|tree| shown(find(tree, &path, is_directory_form(target))))
    }

    #[test]
    fn extensionless_links_name_the_page() {
        assert_eq!(
            found("./server-options").as_deref(),
            Some("docs/server-options.md")
        );
        assert_eq!(found("comp").as_deref(), Some("docs/comp.mdx"));
        assert_eq!(found("./v1.2").as_deref(), Some("docs/v1.2.md"));
        // A notebook is a page of the sites that render them (nbsphinx, myst-nb).
        assert_eq!(
            found("examples/weather-data").as_deref(),
            Some("docs/examples/weather-data.ipynb")
        );
        assert_eq!(
            found("examples/weather-data.html").as_deref(),
            Some("docs/examples/weather-data.ipynb")
        );
    }

    #[test]
    fn directory_links_name_the_index_or_readme() {
        assert_eq!(found("./guide/").as_deref(), Some("docs/guide/index.md"));
        assert_eq!(found("./guide").as_deref(), Some("docs/guide/index.md"));
        assert_eq!(found("api/").as_deref(), Some("docs/api/README.md"));
        assert_eq!(found("..").as_deref(), Some("README.md"));
        assert_eq!(found("./empty/").as_deref(), Some("dir:docs/empty"));
    }

    #[test]
    fn a_page_wins_over_a_directory_of_its_name_unless_the_link_ends_in_a_slash() {
        assert_eq!(found("./both").as_deref(), Some("docs/both.md"));
        assert_eq!(found("./both/").as_deref(), Some("docs/both/index.md"));
        // `x/` with no directory `x` is the page `x.md`.
        assert_eq!(found("./page/").as_deref(), Some("docs/page.md"));
    }

    #[test]
    fn html_links_name_the_markdown_source_unless_the_html_exists() {
        assert_eq!(found("./page.html").as_deref(), Some("docs/page.md"));
        assert_eq!(found("comp.htm").as_deref(), Some("docs/comp.mdx"));
        assert_eq!(
            found("./legacy/index.html").as_deref(),
            Some("docs/legacy/index.md")
        );
        assert_eq!(
            found("./api/index.html").as_deref(),
            Some("docs/api/README.md")
        );
        assert_eq!(found("./static.html").as_deref(), Some("docs/static.html"));
    }

    #[test]
    fn number_prefixes_of_page_names_may_be_left_out() {
        assert_eq!(
            found("./runes/state").as_deref(),
            Some("docs/runes/01-state.md")
        );
        assert_eq!(
            found("runes/derived").as_deref(),
            Some("docs/runes/03-derived.mdx")
        );
        assert_eq!(
            found("runes/effect.html").as_deref(),
            Some("docs/runes/10.effect.md")
        );
        assert_eq!(
            found("runes/02-state").as_deref(),
            Some("docs/runes/02-state.md")
        );
        assert_eq!(found("runes/notes"), None, "only pages");
        assert_eq!(found("runes/-notes"), None);
    }

    #[test]
    fn translated_pages_fall_back_to_the_default_locale() {
        let fallback = |doc: &str, resolved: &str| {
            default_locale_path(&p(doc), &p(resolved)).map(|p| p.as_str().to_owned())
        };
        assert_eq!(
            fallback("docs/es/docs/help.md", "docs/es/docs/newsletter.md").as_deref(),
            Some("docs/en/docs/newsletter.md")
        );
        assert_eq!(
            fallback("docs/pt-br/a/b.md", "docs/pt-br/c.md").as_deref(),
            Some("docs/en/c.md")
        );
        assert_eq!(fallback("docs/en/docs/help.md", "docs/en/docs/x.md"), None);
        assert_eq!(
            fallback("docs/es/docs/help.md", "docs/x.md"),
            None,
            "left the locale"
        );
        assert_eq!(
            fallback("docs/api/help.md", "docs/api/x.md"),
            None,
            "no locale"
        );
    }

    #[test]
    fn a_page_may_be_asked_for_on_disk_by_its_page_files() {
        let files: Vec<String> = page_files(&p("docs/errors/secret-key"))
            .iter()
            .map(|f| f.as_str().to_owned())
            .collect();
        assert!(files.contains(&"docs/errors/secret-key".to_owned()));
        assert!(files.contains(&"docs/errors/secret-key.mdx".to_owned()));
        assert!(files.contains(&"docs/errors/secret-key/index.md".to_owned()));
    }

    #[test]
    fn bare_names_name_the_one_page_of_that_name() {
        let pages = pages_by_name([
            "documentation/docs/02-runes/04-$effect.md",
            "documentation/docs/03-template-syntax/06-snippet.md",
            "a/guide.md",
            "b/guide.md",
            "a/index.md",
            "a/notes.txt",
        ]);
        let page = |name: &str| {
            pages
                .get(name)
                .cloned()
                .flatten()
                .map(|p| p.as_str().to_owned())
        };
        assert_eq!(
            page("$effect").as_deref(),
            Some("documentation/docs/02-runes/04-$effect.md")
        );
        assert_eq!(
            page("snippet").as_deref(),
            Some("documentation/docs/03-template-syntax/06-snippet.md")
        );
        assert_eq!(page("guide"), None, "two pages share the name");
        assert_eq!(page("index"), None);
        assert_eq!(page("notes"), None);
        assert!(is_bare_page_name("v5-migration-guide"));
        for target in ["../kit", "a.md", "./x", "x#y", "", "mailto:a"] {
            assert!(!is_bare_page_name(target), "{target}");
        }
    }

    #[test]
    fn links_to_nothing_stay_unresolved() {
        for target in [
            "./missing",
            "./missing/",
            "./missing.html",
            "./page.md/extra",
            "./server-options.txt",
            "./guide/nope.md",
        ] {
            assert_eq!(found(target), None, "{target}");
        }
    }

    #[test]
    fn site_absolute_paths_try_each_root_and_its_prefix() {
        let repo = Repo::new(&[
            "site/docs/intro.md",
            "site/docs/guide/index.md",
            "site/blog/post.md",
            "site/static/img/logo.png",
            "docs/elsewhere.md",
        ]);
        let roots = repo.site_roots("site/docusaurus.config.ts", "site/docs/intro.md");
        let site = |path: &str| repo.ask(|tree| shown(find_site(tree, &roots, path)));
        assert_eq!(site("/docs/intro").as_deref(), Some("site/docs/intro.md"));
        assert_eq!(site("/intro").as_deref(), Some("site/docs/intro.md"));
        assert_eq!(
            site("/docs/guide/").as_deref(),
            Some("site/docs/guide/index.md")
        );
        assert_eq!(site("/docs").as_deref(), Some("dir:site/docs"));
        assert_eq!(site("/blog/post").as_deref(), Some("site/blog/post.md"));
        assert_eq!(
            site("/img/logo.png").as_deref(),
            Some("site/static/img/logo.png")
        );
        // The repository root comes last.
        assert_eq!(
            site("/docs/elsewhere.md").as_deref(),
            Some("docs/elsewhere.md")
        );
        assert_eq!(
            site("/../../docs/intro").as_deref(),
            Some("site/docs/intro.md")
        );
        assert_eq!(site("/docs/missing"), None);
        assert_eq!(site("/post"), None);
    }

    #[test]
    fn starlight_serves_untranslated_pages_from_the_default_locale() {
        let repo = Repo::new(&[
            "src/content/docs/en/guides/endpoints.mdx",
            "src/content/docs/es/guides/routing.mdx",
            "src/content/docs/install.mdx",
        ]);
        let roots = repo.site_roots("astro.config.mjs", "src/content/docs/es/guides/routing.mdx");
        let site = |path: &str| repo.ask(|tree| shown(find_site(tree, &roots, path)));
        assert_eq!(
            site("/es/guides/endpoints/").as_deref(),
            Some("src/content/docs/en/guides/endpoints.mdx")
        );
        assert_eq!(
            site("/es/guides/routing/").as_deref(),
            Some("src/content/docs/es/guides/routing.mdx")
        );
        assert_eq!(
            site("/pt-br/install/").as_deref(),
            Some("src/content/docs/install.mdx")
        );
        // Only a locale-shaped first segment falls back, and only to the default locale.
        assert_eq!(site("/guides/endpoints/"), None);
        assert_eq!(site("/en/guides/routing/"), None);
        assert_eq!(site("/reference/guides/endpoints/"), None);
    }

    #[test]
    fn toctree_globs_match_as_fnmatch_does() {
        assert!(glob_matches("MEP*", "MEP09"));
        assert!(glob_matches("MEP*", "MEP"));
        assert!(glob_matches("*", "a/b/c"), "`*` crosses `/`");
        assert!(glob_matches(
            "next_api_changes/behavior/*",
            "next_api_changes/behavior/1-x"
        ));
        assert!(glob_matches("v?.[0-9]", "v1.5"));
        assert!(glob_matches("[!a]x", "bx"));
        assert!(glob_matches("a[", "a["), "an unclosed class is literal");
        assert!(!glob_matches("MEP*", "index"));
        assert!(!glob_matches("v?.[0-9]", "v1.x"));
        assert!(!glob_matches("[!a]x", "ax"));
        assert!(!glob_matches("a*b", "a/c"));
        assert!(!glob_matches("", "a"));
        // Many stars on a long name: no blow-up.
        let long = "a".repeat(5000);
        assert!(!glob_matches(
            &"*a".repeat(50).to_string().replace("*a*a", "*a*b"),
            &long
        ));
    }

    #[test]
    fn forge_pages_are_reached_by_climbing_past_blob_and_branch() {
        let readme = p("README.md");
        assert!(is_forge_page(&readme, "../../graphs/contributors"));
        assert!(is_forge_page(&readme, "../../issues"));
        assert!(is_forge_page(&p("docs/guide.md"), "../../../wiki/Home"));
        assert!(!is_forge_page(&readme, "../graphs"));
        assert!(!is_forge_page(&readme, "../../../issues"));
        assert!(!is_forge_page(&readme, "../../src/lib.rs"));
        assert!(!is_forge_page(&p("docs/guide.md"), "../../issues"));
    }

    #[test]
    fn placeholders_are_recognised() {
        for target in [
            "{{RUN_URL}}",
            "{{ site.baseurl }}/guide",
            "{% link a.md %}",
            "<%= url %>",
            "%= url %",
            "${base}/a.md",
            "./x/{{version}}.md",
            "ENGLISH_VERSION_URL",
            "$BRANCH_URL",
            "$URL",
        ] {
            assert!(is_placeholder(target), "{target}");
        }
        for target in [
            "./a.md",
            "100%",
            "a%20b.md",
            "/guide/intro",
            "{not}.md",
            "README_FIRST.md",
            "LICENSE",
            "__init__",
            "$",
            "$effect",
        ] {
            assert!(!is_placeholder(target), "{target}");
        }
    }

    #[test]
    fn a_txt_file_is_a_page_only_where_the_tree_says_so() {
        let files: BTreeSet<RelPath> = ["docs/intro.txt", "docs/api/index.txt"]
            .iter()
            .map(|f| p(f))
            .collect();
        let is_file = |path: &RelPath| files.contains(path);
        let is_dir = |path: &RelPath| path.as_str() == "docs/api";
        let numbered = |_: &RelPath| None;
        let found = |sphinx: bool, link: &str| {
            let is_text_page = |path: &RelPath| sphinx && files.contains(path);
            let tree = Tree {
                is_file: &is_file,
                is_dir: &is_dir,
                numbered: &numbered,
                is_text_page: &is_text_page,
            };
            match find(&tree, &p(link), false) {
                Some(Found::File(path)) => Some(path.as_str().to_owned()),
                _ => None,
            }
        };
        assert_eq!(found(true, "docs/intro").as_deref(), Some("docs/intro.txt"));
        assert_eq!(
            found(true, "docs/api").as_deref(),
            Some("docs/api/index.txt")
        );
        assert_eq!(found(false, "docs/intro"), None);
        assert_eq!(found(false, "docs/api"), None);
    }
}
