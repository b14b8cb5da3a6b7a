//! Documentation sites: which directories `/` stands for in a site-absolute link
//! (`[intro](/guide/intro)`), configured under `analysis.links.siteRoots` or found from the site
//! generators' own configuration files.
//!
//! Detection looks at file names only, plus one setting read from two files:
//!
//! | generator | found by | site roots (each only when the directory exists) |
//! | --- | --- | --- |
//! | VitePress | a `.vitepress/` directory in `X` | `X/<srcDir>` (`srcDir` from `.vitepress/config.*`, default `X`), its `public/` |
//! | Docusaurus | `X/docusaurus.config.*` | `X/docs` (also as `/docs/…`), `X/blog` as `/blog/…`, `X/static`, `X/src/pages` |
//! | Starlight (Astro) | `X/astro.config.*` | `X/src/content/docs`, `X/public` |
//! | MkDocs | `X/mkdocs.yml` (or `.yaml`) | `X/<docs_dir>` (default `X/docs`) |
//!
//! Starlight serves an untranslated page from the default locale, so under its roots a link to
//! `/<locale>/rest` (`/pt-br/guides/x/`, a locale-shaped first segment) that names nothing also
//! tries `/en/rest` and `/rest`.
//!
//! The repository root comes last (GitHub renders `/path` from it). A document tries the roots
//! of the sites it lies in first, the innermost site first, then the other sites in path order.
//! Configured roots replace all of this: exactly those directories, in the order given.

use std::collections::{BTreeMap, BTreeSet};

use doc_bridge_model::RelPath;
use doc_bridge_source::literals::{Assignment, Literal};

use doc_bridge_model::site_generator::{SiteGenerator as Generator, is_script_named, site_of};

/// One directory a site-absolute link may name a file in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteRoot {
    /// The URL path this directory is served at: `/`, or a prefix such as `/docs/` (starts and
    /// ends with `/`).
    pub prefix: String,
    /// The directory.
    pub dir: RelPath,
    /// The site the directory belongs to (the generator's directory; a configured root is its
    /// own site).
    site: RelPath,
    /// Untranslated pages are served from the default locale (Starlight): a miss for
    /// `/<locale>/rest` under this root also tries `/en/rest` and `/rest`.
    pub locale_fallback: bool,
    /// Each page is served as a folder (MkDocs's directory URLs: `async.md` at `/async/`), so a
    /// relative URL written for the site is read from that folder ([`SiteRoots::page_folder`]).
    page_folders: bool,
    /// A relative URL that climbs out of it names a page the host serves beside the site
    /// ([`SiteRoots::leaves_site`]): true for the generators' content directories, false for
    /// a Sphinx source (whose document names stay at it) and configured roots.
    host_beside: bool,
    /// The site's own code decides what a link names (a Hugo link render hook,
    /// `layouts/_markup/render-link.html`): a link that names nothing here is not judged.
    links_by_hook: bool,
    /// A folder's `README.md` is served as its `index.html` (mdBook), so `index.md` names it.
    readme_index: bool,
}

impl SiteRoot {
    /// A directory served at `/` that is its own site, with none of a generator's conventions:
    /// a configured root, a Sphinx source directory, the repository root.
    fn plain(dir: RelPath) -> Self {
        SiteRoot {
            prefix: "/".to_owned(),
            site: dir.clone(),
            dir,
            locale_fallback: false,
            page_folders: false,
            host_beside: false,
            links_by_hook: false,
            readme_index: false,
        }
    }
}

/// The site roots of a repository.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SiteRoots {
    roots: Vec<SiteRoot>,
    /// Configured: exactly `roots`, in order, and no repository root after them.
    configured: bool,
}

impl SiteRoots {
    /// The configured roots (`analysis.links.siteRoots`), tried in the order given.
    pub fn configured(dirs: &[RelPath]) -> Self {
        SiteRoots {
            roots: dirs
                .iter()
                .map(|dir| SiteRoot::plain(dir.clone()))
                .collect(),
            configured: true,
        }
    }

    /// The roots of the documentation sites found among `files` (each with the content
    /// directory its configuration names, see [`content_dir_setting`]) and of the Sphinx
    /// source directories `sphinx` (each its own root); `dirs` holds every directory of the
    /// repository.
    pub fn detect<'a>(
        files: impl IntoIterator<Item = (&'a RelPath, Option<&'a SiteSettings>)>,
        sphinx: &[RelPath],
        dirs: &BTreeSet<RelPath>,
    ) -> Self {
        // (site directory, generator) → the content directory its configuration names, and
        // whether it serves pages as files.
        let mut sites: BTreeMap<(RelPath, Generator), (Option<String>, bool)> = BTreeMap::new();
        let mut link_hooks: Vec<&RelPath> = Vec::new();
        for (path, settings) in files {
            let Some((site, generator)) = site_of(path) else {
                if is_link_render_hook(path) {
                    link_hooks.push(path);
                }
                continue;
            };
            let entry = sites.entry((site, generator)).or_default();
            // For VitePress only its `config.*` names the content directory.
            let names_setting = generator != Generator::VitePress || is_vitepress_config(path);
            if let Some(settings) = settings.filter(|_| names_setting) {
                if settings.content_dir.is_some() {
                    entry.0.clone_from(&settings.content_dir);
                }
                entry.1 |= settings.page_files;
            }
        }
        let mut roots = Vec::new();
        for ((site, generator), (setting, page_files)) in sites {
            let locale_fallback = generator == Generator::Starlight;
            let page_folders =
                (generator == Generator::MkDocs && !page_files) || generator == Generator::Hugo;
            let links_by_hook =
                generator == Generator::Hugo && link_hooks.iter().any(|hook| hook.is_within(&site));
            let mut add = |prefix: &str, dir: Option<RelPath>| {
                if let Some(dir) = dir.filter(|d| dirs.contains(d)) {
                    roots.push(SiteRoot {
                        prefix: prefix.to_owned(),
                        dir,
                        site: site.clone(),
                        locale_fallback,
                        page_folders,
                        host_beside: true,
                        links_by_hook,
                        readme_index: generator == Generator::MdBook,
                    });
                }
            };
            match generator {
                Generator::VitePress => {
                    let src = match &setting {
                        Some(dir) => RelPath::join_normalized(&site, dir),
                        None => Some(site.clone()),
                    };
                    add("/", src.clone());
                    add("/", src.and_then(|s| s.join("public")));
                }
                Generator::Docusaurus => {
                    add("/docs/", site.join("docs"));
                    add("/", site.join("docs"));
                    add("/blog/", site.join("blog"));
                    add("/", site.join("static"));
                    add("/", site.join("src/pages"));
                }
                Generator::Starlight => {
                    add("/", site.join("src/content/docs"));
                    add("/", site.join("public"));
                }
                Generator::MkDocs => {
                    let docs = setting.as_deref().unwrap_or("docs");
                    add("/", RelPath::join_normalized(&site, docs));
                }
                Generator::MdBook => {
                    let src = setting.as_deref().unwrap_or("src");
                    add("/", RelPath::join_normalized(&site, src));
                }
                Generator::Hugo => {
                    add("/", site.join("content"));
                    add("/", site.join("static"));
                }
                Generator::DocFx => add("/", Some(site.clone())),
            }
        }
        for source in sphinx {
            roots.push(SiteRoot::plain(source.clone()));
        }
        roots.sort_by(|a, b| a.site.cmp(&b.site));
        SiteRoots {
            roots,
            configured: false,
        }
    }

    /// The roots a site-absolute link in the document at `path` tries, in order: configured
    /// ones as given; detected ones of the sites holding the document first (innermost site
    /// first), then the others, then the repository root.
    pub fn for_document(&self, path: &RelPath) -> Vec<SiteRoot> {
        let mut roots = self.roots.clone();
        if self.configured {
            return roots;
        }
        // Stable: roots of one site keep their order.
        roots.sort_by_key(|root| {
            let holds = path.is_within(&root.site);
            (
                !holds,
                std::cmp::Reverse(if holds { root.site.depth() } else { 0 }),
            )
        });
        roots.push(SiteRoot::plain(RelPath::root()));
        roots
    }

    /// The page an mdBook serves for `path` when `path` is a folder's `index.md` or `index.html`
    /// in it: the folder's `README.md`, which mdBook renders as `index.html`.
    pub fn readme_as_index(&self, path: &RelPath) -> Option<RelPath> {
        let served = !self.configured
            && self
                .roots
                .iter()
                .any(|root| root.readme_index && path.is_within(&root.dir));
        let index = matches!(path.file_name(), "index.md" | "index.html");
        (served && index)
            .then(|| path.parent().join("README.md"))
            .flatten()
    }

    /// Whether the site the document at `from` is a page of decides what its links name in its
    /// own code (a Hugo link render hook): a link that names nothing here is not judged.
    pub fn links_by_hook(&self, from: &RelPath) -> bool {
        !self.configured
            && self
                .roots
                .iter()
                .any(|root| root.links_by_hook && from.is_within(&root.dir))
    }

    /// Whether a relative link written as a URL (`../std/index.html`, `../kit`: a page, no
    /// source file's extension) from the document at `from` climbs out of the content
    /// directory of the detected site it is a page of. It then names what the host serves
    /// beside the site (doc.rust-lang.org's `/std/` beside the book at `/book/`; an older
    /// edition's page linking the current one), which this repository does not describe: no
    /// finding. Read from the folder the page is served as ([`SiteRoots::page_folder`]).
    pub fn leaves_site(&self, from: &RelPath, target: &str) -> bool {
        if self.configured || !is_url_style(target) {
            return false;
        }
        let Some(root) = self
            .roots
            .iter()
            .filter(|root| from.is_within(&root.dir))
            .max_by_key(|root| root.dir.depth())
            .filter(|root| root.host_beside)
        else {
            return false;
        };
        let base = self.page_folder(from).unwrap_or_else(|| from.parent());
        RelPath::join_normalized(&base, target).is_none_or(|path| !path.is_within(&root.dir))
    }

    /// The folder a page is served as when its site serves every page as one (MkDocs's
    /// directory URLs, Hugo's pretty URLs: `docs/async.md` at `/async/`, so its `../advanced/transports` is
    /// `docs/advanced/transports`): links its folder does not resolve are read from there too.
    /// `None` outside such a site and for an index page (`index.md`, `_index.md`, `README.md`), which is
    /// served at its own folder.
    pub fn page_folder(&self, path: &RelPath) -> Option<RelPath> {
        let served = !self.configured
            && self
                .roots
                .iter()
                .any(|root| root.page_folders && path.is_within(&root.dir));
        let stem = path.file_stem();
        let index = ["index", "_index", "readme"]
            .iter()
            .any(|name| stem.eq_ignore_ascii_case(name));
        (served && !index)
            .then(|| path.parent().join(stem))
            .flatten()
    }

    /// Whether a site-absolute link in the document at `path` that names nothing is a finding:
    /// when the roots are configured, or the document lies in a detected site. Elsewhere `/`
    /// may stand for a site this repository does not describe (a README's `/docs/svelte/$state`
    /// on svelte.dev), so only links that resolve count.
    pub fn judges(&self, path: &RelPath) -> bool {
        self.configured || self.roots.iter().any(|root| path.is_within(&root.site))
    }
}

/// A Hugo link render hook: `layouts/_markup/render-link.html` (also under `_default/`, for
/// one output format or language, `render-link.rss.html`, or in a theme's `layouts/`).
fn is_link_render_hook(path: &RelPath) -> bool {
    let name = path.file_name();
    name.starts_with("render-link")
        && name.ends_with(".html")
        && path.parent().file_name() == "_markup"
        && path.as_str().split('/').any(|dir| dir == "layouts")
}

/// Whether a link's path reads as a URL of a page rather than a file of the repository: it ends
/// with `/`, names `.html` or `.htm`, or its last segment has no extension (`../kit`, `..`).
pub(crate) fn is_url_style(target: &str) -> bool {
    let last = target.rsplit('/').next().unwrap_or(target);
    let extension = last
        .rsplit_once('.')
        .map(|(stem, ext)| (stem, ext.to_ascii_lowercase()));
    match extension {
        _ if last.is_empty() || last == ".." || last == "." => true,
        None => true,
        Some((_, ext)) => ext == "html" || ext == "htm",
    }
}

/// `.vitepress/config.{js,ts,...}`.
fn is_vitepress_config(path: &RelPath) -> bool {
    path.parent().file_name() == ".vitepress" && is_script_named(path.file_name(), "config")
}

/// What a documentation site's configuration file says about its pages, read when the file is
/// observed (configuration files are few): see [`site_settings`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SiteSettings {
    /// The content directory it names, as written ([`content_dir_setting`]).
    pub content_dir: Option<String>,
    /// It serves each page as a file, not as a folder: `mkdocs.yml`'s
    /// `use_directory_urls: false` (`async.md` at `/async.html`, not `/async/`).
    pub page_files: bool,
    /// A Sphinx `conf.py`'s `source_suffix`, the extensions of its documents (`.rst`, `.txt`),
    /// when written out as a literal; `None` when it is computed or absent.
    pub sphinx_suffixes: Option<Vec<String>>,
    /// A Sphinx `conf.py`'s `exclude_patterns`, as far as they are written out (a list assigned
    /// and the lists added to it with `+=`; what a computed or imported value holds is not
    /// known, so not listed).
    pub sphinx_excludes: Vec<String>,
    /// The pages a Sphinx `conf.py`'s `html_additional_pages` renders from templates
    /// (`{'contents': 'contents.html'}` → `contents`), when written out as a literal dictionary.
    pub sphinx_additional_pages: Vec<String>,
    /// Where sphinx-gallery renders its galleries, when a Sphinx `conf.py` uses it.
    pub sphinx_gallery: Option<SphinxGallery>,
}

/// What a Sphinx `conf.py` says of sphinx-gallery, which renders each example directory
/// (`examples_dirs`) into a directory of pages (`gallery_dirs`), both relative to the
/// `conf.py`: every script and copied page of `../examples/a/x.py` becomes `auto_examples/a/x`,
/// and its links are read from there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SphinxGallery {
    /// (examples directory, gallery directory) pairs, as written in `sphinx_gallery_conf`.
    Dirs(Vec<(String, String)>),
    /// The extension is used, but its directories are computed (matplotlib builds the lists
    /// with comprehensions) or set where a top-level reading cannot see them.
    Unknown,
}

/// The settings of a site configuration file (`mkdocs.yml`, `.vitepress/config.*`, a Sphinx
/// `conf.py`); `None` for any other file, or when it says nothing read here.
pub fn site_settings(path: &RelPath, bytes: &[u8]) -> Option<Box<SiteSettings>> {
    let mut settings = SiteSettings {
        content_dir: content_dir_setting(path, bytes),
        page_files: is_mkdocs_config(path)
            && std::str::from_utf8(bytes)
                .is_ok_and(|text| mkdocs_top_level(text, "use_directory_urls") == Some("false")),
        ..SiteSettings::default()
    };
    if path.file_name() == "conf.py" {
        let assignments = doc_bridge_source::literals::python_assignments(bytes);
        settings.sphinx_suffixes = sphinx_suffixes(&assignments);
        settings.sphinx_excludes = sphinx_excludes(&assignments);
        settings.sphinx_additional_pages = sphinx_additional_pages(&assignments);
        settings.sphinx_gallery = sphinx_gallery(bytes, &assignments);
    }
    (settings != SiteSettings::default()).then(|| Box::new(settings))
}

/// The `source_suffix` a Sphinx `conf.py` assigns at its top level: a string, a list of them
/// or a dictionary keyed by them (the last assignment wins; `None` if it is not written out).
fn sphinx_suffixes(assignments: &[Assignment]) -> Option<Vec<String>> {
    let assigned = assignments
        .iter()
        .rfind(|a| a.name == "source_suffix" && !a.augmented)?;
    let suffixes: Vec<String> = match &assigned.value {
        Literal::Dict(entries) => entries.iter().map(|(key, _)| key.clone()).collect(),
        value => value.strings()?.into_iter().map(str::to_owned).collect(),
    };
    Some(suffixes)
}

/// The `exclude_patterns` a Sphinx `conf.py` writes out: an assignment starts the list over
/// (with nothing known when its value is computed), `+=` adds to it.
fn sphinx_excludes(assignments: &[Assignment]) -> Vec<String> {
    let mut patterns: Vec<String> = Vec::new();
    for assignment in assignments.iter().filter(|a| a.name == "exclude_patterns") {
        if !assignment.augmented {
            patterns.clear();
        }
        if let Some(strings) = assignment.value.strings() {
            patterns.extend(strings.into_iter().map(str::to_owned));
        }
    }
    patterns
}

/// The page names of the `html_additional_pages` a Sphinx `conf.py` assigns at its top level
/// (the last assignment wins; nothing when it is not a literal dictionary).
fn sphinx_additional_pages(assignments: &[Assignment]) -> Vec<String> {
    match assignments
        .iter()
        .rfind(|a| a.name == "html_additional_pages" && !a.augmented)
        .map(|a| &a.value)
    {
        Some(Literal::Dict(entries)) => entries.iter().map(|(page, _)| page.clone()).collect(),
        _ => Vec::new(),
    }
}

/// What a Sphinx `conf.py` says of sphinx-gallery: nothing when it never names the extension
/// (`sphinx_gallery`); the directory pairs of its top-level `sphinx_gallery_conf` dictionary
/// (`examples_dirs` and `gallery_dirs`: a string or a list each, of one length; sphinx-gallery's
/// defaults, `../examples` and `auto_examples`, for a setting left out); else
/// [`SphinxGallery::Unknown`] (a setting computed, or the dictionary set where a top-level
/// reading cannot see it).
fn sphinx_gallery(bytes: &[u8], assignments: &[Assignment]) -> Option<SphinxGallery> {
    memchr::memmem::find(bytes, b"sphinx_gallery")?;
    let entries: &[(String, Literal)] = match assignments
        .iter()
        .rfind(|a| a.name == "sphinx_gallery_conf" && !a.augmented)
        .map(|a| &a.value)
    {
        Some(Literal::Dict(entries)) => entries,
        None if memchr::memmem::find(bytes, b"sphinx_gallery_conf").is_none() => &[],
        _ => return Some(SphinxGallery::Unknown),
    };
    let setting = |key: &str, default: &'static str| match entries.iter().rfind(|(k, _)| k == key) {
        None => Some(vec![default]),
        Some((_, value)) => value.strings(),
    };
    let dirs =
        setting("examples_dirs", "../examples").zip(setting("gallery_dirs", "auto_examples"));
    Some(match dirs {
        Some((examples, galleries))
            if examples.len() == galleries.len() && !examples.is_empty() =>
        {
            SphinxGallery::Dirs(
                examples
                    .into_iter()
                    .zip(galleries)
                    .map(|(e, g)| (e.to_owned(), g.to_owned()))
                    .collect(),
            )
        }
        _ => SphinxGallery::Unknown,
    })
}

/// The content directory a site configuration file names, as written: `docs_dir` of
/// `mkdocs.yml` (a top-level key), `srcDir` of `.vitepress/config.*` (the first `srcDir:`
/// followed by a string literal), `[book] src` of an mdBook's `book.toml`. `None` for other files, or when the setting is absent or not
/// a plain string (the generator's default applies).
fn content_dir_setting(path: &RelPath, bytes: &[u8]) -> Option<String> {
    let mkdocs = is_mkdocs_config(path);
    let mdbook = path.file_name() == "book.toml";
    if !mkdocs && !mdbook && !is_vitepress_config(path) {
        return None;
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let book_src;
    let value = if mdbook {
        let table: toml::Table = text.parse().ok()?;
        book_src = table.get("book")?.get("src")?.as_str()?.to_owned();
        Some(book_src.as_str())
    } else if mkdocs {
        mkdocs_top_level(text, "docs_dir")
    } else {
        vitepress_src_dir(text)
    }?;
    let value = value.trim();
    (!value.is_empty() && !value.starts_with('/')).then(|| value.to_owned())
}

fn is_mkdocs_config(path: &RelPath) -> bool {
    matches!(path.file_name(), "mkdocs.yml" | "mkdocs.yaml")
}

/// `key: value` at the start of a line of `mkdocs.yml` (top level), quotes and a trailing
/// comment removed.
fn mkdocs_top_level<'t>(text: &'t str, key: &str) -> Option<&'t str> {
    text.lines().find_map(|line| {
        let value = line.strip_prefix(key)?.trim_start().strip_prefix(':')?;
        let value = value.trim();
        match value.chars().next() {
            Some(quote @ ('"' | '\'')) => value[1..].split(quote).next(),
            _ => value.split(" #").next().map(str::trim),
        }
    })
}

/// The string literal after the first `srcDir:` (`srcDir: './src'`, `"srcDir": "docs"`).
fn vitepress_src_dir(text: &str) -> Option<&str> {
    let mut rest = text;
    while let Some(at) = rest.find("srcDir") {
        let after = &rest[at + "srcDir".len()..];
        let after = after
            .strip_prefix(['"', '\''])
            .unwrap_or(after)
            .trim_start();
        if let Some(value) = after.strip_prefix(':').map(str::trim_start)
            && let Some(quote @ ('"' | '\'' | '`')) = value.chars().next()
        {
            return value[1..].split(quote).next();
        }
        rest = after;
    }
    None
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn p(s: &str) -> RelPath {
        RelPath::new(s).unwrap()
    }

    fn dirs_of(files: &[&str]) -> BTreeSet<RelPath> {
        let mut dirs = BTreeSet::from([RelPath::root()]);
        for file in files {
            let mut dir = p(file).parent();
            while !dir.is_root() && dirs.insert(dir.clone()) {
                dir = dir.parent();
            }
        }
        dirs
    }

    /// `(prefix, dir)` of the roots a document at `from` tries.
    fn roots(files: &[(&str, Option<&str>)], from: &str) -> Vec<(String, String)> {
        let paths: Vec<RelPath> = files.iter().map(|(f, _)| p(f)).collect();
        let names: Vec<&str> = files.iter().map(|(f, _)| *f).collect();
        let settings: Vec<Option<SiteSettings>> = files
            .iter()
            .map(|(_, dir)| {
                dir.map(|dir| SiteSettings {
                    content_dir: Some(dir.to_owned()),
                    ..SiteSettings::default()
                })
            })
            .collect();
        let detected = SiteRoots::detect(
            paths.iter().zip(settings.iter().map(Option::as_ref)),
            &[],
            &dirs_of(&names),
        );
        detected
            .for_document(&p(from))
            .into_iter()
            .map(|r| (r.prefix, r.dir.as_str().to_owned()))
            .collect()
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect()
    }

    #[test]
    fn no_site_generator_leaves_the_repository_root() {
        assert_eq!(
            roots(&[("README.md", None), ("docs/a.md", None)], "docs/a.md"),
            pairs(&[("/", ".")])
        );
    }

    #[test]
    fn vitepress_serves_the_parent_of_its_directory_or_its_src_dir() {
        let files = [
            ("docs/.vitepress/config.ts", None),
            ("docs/guide/a.md", None),
            ("docs/public/logo.svg", None),
        ];
        assert_eq!(
            roots(&files, "docs/guide/a.md"),
            pairs(&[("/", "docs"), ("/", "docs/public"), ("/", ".")])
        );
        let files = [
            (".vitepress/config.mts", Some("./src")),
            ("src/index.md", None),
        ];
        assert_eq!(
            roots(&files, "src/index.md"),
            pairs(&[("/", "src"), ("/", ".")])
        );
    }

    #[test]
    fn docusaurus_starlight_and_mkdocs_have_their_content_directories() {
        let files = [
            ("website/docusaurus.config.js", None),
            ("website/docs/intro.md", None),
            ("website/blog/post.md", None),
            ("website/static/img/a.png", None),
            ("site/astro.config.mjs", None),
            ("site/src/content/docs/en/a.md", None),
            ("mkdocs.yml", Some("manual")),
            ("manual/index.md", None),
        ];
        // From inside the Docusaurus site its roots come first, then the MkDocs site at the
        // root (which holds the document too), then `site`, then the repository root.
        assert_eq!(
            roots(&files, "website/docs/intro.md"),
            pairs(&[
                ("/docs/", "website/docs"),
                ("/", "website/docs"),
                ("/blog/", "website/blog"),
                ("/", "website/static"),
                ("/", "manual"),
                ("/", "site/src/content/docs"),
                ("/", "."),
            ])
        );
        // A content directory that does not exist is no root (`website/src/pages`, `docs` of
        // an MkDocs site without one).
        assert_eq!(
            roots(&[("mkdocs.yml", None), ("README.md", None)], "README.md"),
            pairs(&[("/", ".")])
        );
    }

    #[test]
    fn configured_roots_are_exactly_those_in_order() {
        let configured = SiteRoots::configured(&[p("src/content/docs"), RelPath::root()]);
        let dirs: Vec<String> = configured
            .for_document(&p("README.md"))
            .into_iter()
            .map(|r| r.dir.as_str().to_owned())
            .collect();
        assert_eq!(dirs, ["src/content/docs", "."]);
    }

    #[test]
    fn a_sphinx_conf_gives_its_source_suffix_when_written_out() {
        let suffixes = |path: &str, text: &str| {
            site_settings(&p(path), text.as_bytes()).and_then(|s| s.sphinx_suffixes)
        };
        let owned = |list: &[&str]| Some(list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
        assert_eq!(
            suffixes("docs/conf.py", "source_suffix = '.txt'\n"),
            owned(&[".txt"])
        );
        assert_eq!(
            suffixes("conf.py", "source_suffix = ['.rst', '.md']\n"),
            owned(&[".rst", ".md"])
        );
        assert_eq!(
            suffixes(
                "doc/conf.py",
                "source_suffix = '.rst'\nsource_suffix = {'.rst': 'restructuredtext', '.txt': 'x'}\n"
            ),
            owned(&[".rst", ".txt"]),
            "the last assignment wins"
        );
        assert_eq!(suffixes("doc/conf.py", "source_suffix = SUFFIXES\n"), None);
        assert_eq!(suffixes("doc/conf.py", "project = 'x'\n"), None);
        assert_eq!(
            suffixes("doc/settings.py", "source_suffix = '.txt'\n"),
            None,
            "only a conf.py is Sphinx's"
        );
        let reads = |text: &str| {
            let settings = site_settings(&p("conf.py"), text.as_bytes());
            doc_bridge_model::site_generator::sphinx_reads_txt(
                settings.as_ref().and_then(|s| s.sphinx_suffixes.as_deref()),
            )
        };
        assert!(reads("source_suffix = {'.txt': 'restructuredtext'}"));
        assert!(!reads("source_suffix = '.rst'"));
        assert!(
            !reads("from shared.conf import *"),
            "unknown: Sphinx's default"
        );
    }

    #[test]
    fn a_sphinx_conf_gives_where_sphinx_gallery_renders() {
        let gallery = |text: &str| {
            site_settings(&p("doc/conf.py"), text.as_bytes()).and_then(|s| s.sphinx_gallery)
        };
        let dirs = |pairs: &[(&str, &str)]| {
            Some(SphinxGallery::Dirs(
                pairs
                    .iter()
                    .map(|(e, g)| ((*e).to_owned(), (*g).to_owned()))
                    .collect(),
            ))
        };
        assert_eq!(
            gallery(
                "extensions = ['sphinx_gallery.gen_gallery']\nsphinx_gallery_conf = {\n    'examples_dirs': ['../examples', '../tutorials'],\n    'gallery_dirs': ['auto_examples', 'tutorials'],\n    'backreferences_dir': Path('gen'),\n}\n"
            ),
            dirs(&[
                ("../examples", "auto_examples"),
                ("../tutorials", "tutorials")
            ])
        );
        assert_eq!(
            gallery(
                "sphinx_gallery_conf = {'examples_dirs': '../examples', 'gallery_dirs': 'gallery'}\n"
            ),
            dirs(&[("../examples", "gallery")])
        );
        // Computed lists (matplotlib), lists of two lengths, a conf set inside an `if`.
        for unknown in [
            "gallery_dirs = [f'{d}' for d in ['gallery']]\nsphinx_gallery_conf = {'examples_dirs': ['../x'], 'gallery_dirs': gallery_dirs}\n",
            "sphinx_gallery_conf = {'examples_dirs': ['a', 'b'], 'gallery_dirs': ['c']}\n",
            "if True:\n    sphinx_gallery_conf = {'examples_dirs': 'a', 'gallery_dirs': 'b'}\nextensions = ['sphinx_gallery.gen_gallery']\n",
        ] {
            assert_eq!(gallery(unknown), Some(SphinxGallery::Unknown), "{unknown}");
        }
        assert_eq!(gallery("extensions = ['sphinx.ext.autodoc']\n"), None);
        // sphinx-gallery's defaults, for a dictionary that leaves them out or no dictionary.
        assert_eq!(
            gallery("extensions = ['sphinx_gallery.gen_gallery']\n"),
            dirs(&[("../examples", "auto_examples")])
        );
        assert_eq!(
            gallery("sphinx_gallery_conf = {'gallery_dirs': 'gallery'}\n"),
            dirs(&[("../examples", "gallery")])
        );
    }

    #[test]
    fn a_sphinx_conf_gives_the_additional_pages_it_renders() {
        let pages = |text: &str| {
            site_settings(&p("doc/conf.py"), text.as_bytes())
                .map(|s| s.sphinx_additional_pages)
                .unwrap_or_default()
        };
        assert_eq!(
            pages("html_additional_pages = {'contents': 'contents.html', 'download': 'dl.html'}\n"),
            ["contents", "download"]
        );
        assert!(pages("html_additional_pages = pages()\n").is_empty());
        assert!(pages("html_additional_pages = {}\n").is_empty());
    }

    #[test]
    fn a_sphinx_conf_gives_the_exclude_patterns_it_writes_out() {
        let excludes = |text: &str| {
            site_settings(&p("docs/conf.py"), text.as_bytes())
                .map(|s| s.sphinx_excludes)
                .unwrap_or_default()
        };
        assert_eq!(
            excludes("exclude_patterns = ['_build']\nexclude_patterns += ('changes', '*.inc')\n"),
            ["_build", "changes", "*.inc"]
        );
        assert_eq!(
            excludes(
                "exclude_patterns = ['old']\nexclude_patterns = shared.EXCLUDES\nexclude_patterns += ['x']\n"
            ),
            ["x"],
            "a computed assignment starts over with nothing known"
        );
        assert_eq!(
            excludes("from base import exclude_patterns\nexclude_patterns += ['_templates']\n"),
            ["_templates"]
        );
        assert!(excludes("exclude_patterns.append('x')\n").is_empty());
    }

    #[test]
    fn content_directory_settings_are_read_from_the_two_files() {
        let setting = |path: &str, text: &str| content_dir_setting(&p(path), text.as_bytes());
        assert_eq!(
            setting(
                "mkdocs.yml",
                "site_name: x\ndocs_dir: 'content' # here\nnav: []\n"
            ),
            Some("content".to_owned())
        );
        assert_eq!(
            setting("mkdocs.yaml", "docs_dir: pages # comment\n"),
            Some("pages".to_owned())
        );
        assert_eq!(setting("mkdocs.yml", "  docs_dir: nested\n"), None);
        assert_eq!(
            setting(
                "docs/.vitepress/config.ts",
                "export default defineConfig({\n  srcDir: './src',\n})\n"
            ),
            Some("./src".to_owned())
        );
        assert_eq!(
            setting(".vitepress/config.json.ts", "{\"srcDir\": \"docs\"}"),
            None
        );
        assert_eq!(
            setting(".vitepress/config.js", "{\"srcDir\": \"docs\"}"),
            Some("docs".to_owned())
        );
        assert_eq!(
            setting(".vitepress/config.js", "srcDir: path.resolve(x)"),
            None
        );
        assert_eq!(setting("docs/srcDir.md", "srcDir: 'x'"), None);
        assert_eq!(setting("mkdocs.yml", "docs_dir: ''\n"), None);
        assert_eq!(setting("mkdocs.yml", "docs_dir: /srv/docs\n"), None);
        assert_eq!(
            content_dir_setting(&p("mkdocs.yml"), b"docs_dir: \xff\n"),
            None
        );
    }
}
