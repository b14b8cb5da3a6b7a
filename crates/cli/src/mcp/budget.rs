//! Fitting a tool response to `budgetTokens`: a pure function over the response JSON.
//!
//! A token is taken as four characters of the compact JSON text the client receives. Parts are
//! dropped least important first (excerpts, then related, then neighbours), and inside a part in
//! the order the tool listed them (least important first). What no cut names is the core: it is
//! never touched, and when it alone is over the budget the response says `fits: false`.

use serde_json::{Map, Value};

/// Characters per token, the estimate every MCP budget uses here.
pub const CHARS_PER_TOKEN: usize = 4;

/// The droppable parts, in the order they go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Part {
    /// Text excerpts of results.
    Excerpts,
    /// Related areas and documents.
    Related,
    /// Graph neighbours.
    Neighbours,
    /// The items of a paged list (`diagnostics`): the page ends earlier and `nextCursor` says
    /// where the rest starts.
    Items,
}

impl Part {
    /// The name reported in `dropped`.
    pub fn as_str(self) -> &'static str {
        match self {
            Part::Excerpts => "excerpts",
            Part::Related => "related",
            Part::Neighbours => "neighbours",
            Part::Items => "items",
        }
    }
}

/// One way to make a response smaller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cut {
    /// Remove the member `key` of the object at the JSON pointer `parent`.
    Key {
        /// JSON pointer of the object ("" for the top level).
        parent: String,
        /// The member to remove.
        key: String,
    },
    /// Remove elements from the end of the array at the JSON pointer `array`, as few as needed.
    Tail {
        /// JSON pointer of the array.
        array: String,
    },
}

/// A cut and the part it belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Droppable {
    /// Which part.
    pub part: Part,
    /// What to cut.
    pub cut: Cut,
}

impl Droppable {
    /// Removing `key` from the object at `parent`.
    pub fn key(part: Part, parent: impl Into<String>, key: impl Into<String>) -> Self {
        Droppable {
            part,
            cut: Cut::Key {
                parent: parent.into(),
                key: key.into(),
            },
        }
    }

    /// Shortening the array at `array` from its end.
    pub fn tail(part: Part, array: impl Into<String>) -> Self {
        Droppable {
            part,
            cut: Cut::Tail {
                array: array.into(),
            },
        }
    }
}

/// A page of one or more lists inside a response: each array holds its list's items from
/// `start` on. After fitting, [`Page::finish`] writes where the next page starts: the same
/// position in every list, the first item a list left out (a budget may cut lists unevenly, so
/// an item can come again, never go missing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// Each list: the JSON pointer of its array and how many items the whole list has.
    pub lists: Vec<(String, usize)>,
    /// Position of each page's first item in its whole list.
    pub start: usize,
}

/// The longest cursor: room kept for it before fitting, so writing the real one after can only
/// shorten the response.
const CURSOR_ROOM: &str = "o18446744073709551615";

impl Page {
    /// The cursor of the page that starts at `offset`.
    pub fn cursor(offset: usize) -> String {
        format!("o{offset}")
    }

    /// Reads a cursor given back by a client: `None` when it is not one of ours.
    pub fn parse_cursor(cursor: &str) -> Option<usize> {
        let digits = cursor.strip_prefix('o')?;
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        digits.parse().ok()
    }

    /// Reserves `nextCursor` and `remaining` at their longest in `value` (an object), so a
    /// budget fitted afterwards accounts for them.
    pub fn reserve(&self, value: &mut Value) {
        if let Some(object) = value.as_object_mut() {
            object.insert("nextCursor".to_owned(), Value::from(CURSOR_ROOM));
            object.insert("remaining".to_owned(), Value::from(u64::MAX));
        }
    }

    /// Writes the real `remaining` (items after this page, over all lists) and `nextCursor`
    /// (absent on the last page) from what the arrays hold now; neither is longer than what
    /// [`Page::reserve`] kept.
    pub fn finish(&self, value: &mut Value) {
        let mut remaining = 0usize;
        let mut next: Option<usize> = None;
        for (array, total) in &self.lists {
            let kept = value
                .pointer(array)
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            let end = self.start.saturating_add(kept);
            if end < *total {
                remaining += total - end;
                next = Some(next.map_or(end, |n| n.min(end)));
            }
        }
        let Some(object) = value.as_object_mut() else {
            return;
        };
        object.insert(
            "remaining".to_owned(),
            Value::from(u64::try_from(remaining).unwrap_or(u64::MAX)),
        );
        match next {
            Some(next) => object.insert("nextCursor".to_owned(), Value::from(Page::cursor(next))),
            None => object.remove("nextCursor"),
        };
    }
}

/// The compact JSON length of `value` in characters (what the client receives).
pub fn chars(value: &Value) -> usize {
    serde_json::to_string(value)
        .map(|s| s.chars().count())
        .unwrap_or(usize::MAX)
}

/// Fits `response` (a JSON object) into `budget_tokens`. Without a budget the response is returned
/// as it is. With one, it gains `fits` (and `dropped`, the parts that were cut) and is at most
/// `budget_tokens × 4` characters long unless `fits` is `false`, which happens only when every
/// droppable part is gone and the core alone is still larger.
pub fn fit(response: Value, droppables: &[Droppable], budget_tokens: Option<u64>) -> Value {
    let Some(tokens) = budget_tokens else {
        return response;
    };
    let Value::Object(object) = response else {
        return response;
    };
    let max = usize::try_from(tokens)
        .unwrap_or(usize::MAX)
        .saturating_mul(CHARS_PER_TOKEN);
    let mut fitting = Fitting {
        value: Value::Object(object),
        dropped: Vec::new(),
        max,
    };
    let mut order: Vec<&Droppable> = droppables.iter().collect();
    // Stable: inside a part, the tool's order (least important first) is kept.
    order.sort_by_key(|d| d.part);
    for droppable in order {
        if fitting.fits() {
            break;
        }
        fitting.apply(droppable);
    }
    let fits = fitting.fits();
    fitting.annotate(fits);
    fitting.value
}

struct Fitting {
    value: Value,
    dropped: Vec<Part>,
    max: usize,
}

impl Fitting {
    fn annotated(&self, fits: bool) -> Value {
        let mut value = self.value.clone();
        if let Value::Object(object) = &mut value {
            annotate_object(object, fits, &self.dropped);
        }
        value
    }

    fn annotate(&mut self, fits: bool) {
        let dropped = self.dropped.clone();
        if let Value::Object(object) = &mut self.value {
            annotate_object(object, fits, &dropped);
        }
    }

    fn size(&self) -> usize {
        // Measured with the annotation that will be added, so the final text is what was measured.
        chars(&self.annotated(true))
    }

    fn fits(&self) -> bool {
        self.size() <= self.max
    }

    fn mark(&mut self, part: Part) {
        if !self.dropped.contains(&part) {
            self.dropped.push(part);
            self.dropped.sort();
        }
    }

    fn apply(&mut self, droppable: &Droppable) {
        match &droppable.cut {
            Cut::Key { parent, key } => {
                let removed = self
                    .value
                    .pointer_mut(parent)
                    .and_then(Value::as_object_mut)
                    .and_then(|o| o.remove(key))
                    .is_some();
                if removed {
                    self.mark(droppable.part);
                }
            }
            Cut::Tail { array } => {
                let Some(len) = self
                    .value
                    .pointer(array)
                    .and_then(Value::as_array)
                    .map(Vec::len)
                else {
                    return;
                };
                if len == 0 {
                    return;
                }
                // The smallest number of elements to remove: binary search, since a shorter
                // array is never longer text.
                let (mut lo, mut hi) = (1, len);
                let fits_after = |this: &mut Self, remove: usize| {
                    let mut trial = Fitting {
                        value: this.value.clone(),
                        dropped: this.dropped.clone(),
                        max: this.max,
                    };
                    trial.mark(droppable.part);
                    if let Some(a) = trial.value.pointer_mut(array).and_then(Value::as_array_mut) {
                        a.truncate(len - remove);
                    }
                    trial.fits()
                };
                if !fits_after(self, len) {
                    lo = len;
                } else {
                    while lo < hi {
                        let mid = lo + (hi - lo) / 2;
                        if fits_after(self, mid) {
                            hi = mid;
                        } else {
                            lo = mid + 1;
                        }
                    }
                }
                if let Some(a) = self.value.pointer_mut(array).and_then(Value::as_array_mut) {
                    a.truncate(len - lo);
                }
                self.mark(droppable.part);
            }
        }
    }
}

fn annotate_object(object: &mut Map<String, Value>, fits: bool, dropped: &[Part]) {
    object.insert("fits".to_owned(), Value::Bool(fits));
    if dropped.is_empty() {
        object.remove("dropped");
    } else {
        object.insert(
            "dropped".to_owned(),
            Value::Array(
                dropped
                    .iter()
                    .map(|p| Value::String(p.as_str().to_owned()))
                    .collect(),
            ),
        );
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn search_like() -> (Value, Vec<Droppable>) {
        let value = json!({
            "query": "auth",
            "results": [
                {"id": "document:a.md", "title": "A", "excerpt": {"startLine": 1, "text": "1: ".to_owned() + &"a".repeat(200)}},
                {"id": "document:b.md", "title": "B", "excerpt": {"startLine": 1, "text": "1: ".to_owned() + &"b".repeat(200)}},
            ],
            "related": ["x".repeat(100), "y".repeat(100)],
        });
        let droppables = vec![
            Droppable::key(Part::Excerpts, "/results/1", "excerpt"),
            Droppable::key(Part::Excerpts, "/results/0", "excerpt"),
            Droppable::tail(Part::Related, "/related"),
        ];
        (value, droppables)
    }

    #[test]
    fn cursors_read_back_and_foreign_ones_are_refused() {
        assert_eq!(Page::parse_cursor(&Page::cursor(42)), Some(42));
        for bad in ["", "o", "42", "o-1", "o4x", "o99999999999999999999999"] {
            assert_eq!(Page::parse_cursor(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_finished_page_names_the_first_item_any_list_left_out() {
        let page = Page {
            lists: vec![("/a".to_owned(), 5), ("/b".to_owned(), 2)],
            start: 1,
        };
        let mut value = serde_json::json!({"a": [1, 2], "b": [1]});
        page.reserve(&mut value);
        let reserved = chars(&value);
        page.finish(&mut value);
        assert!(chars(&value) <= reserved);
        assert_eq!(value["nextCursor"], "o3");
        assert_eq!(value["remaining"], 2);
        let mut last = serde_json::json!({"a": [1, 2, 3, 4], "b": [1]});
        page.finish(&mut last);
        assert!(last.get("nextCursor").is_none());
        assert_eq!(last["remaining"], 0);
    }

    #[test]
    fn no_budget_leaves_the_response_untouched() {
        let (value, droppables) = search_like();
        assert_eq!(fit(value.clone(), &droppables, None), value);
    }

    #[test]
    fn a_large_budget_only_adds_fits_true() {
        let (value, droppables) = search_like();
        let fitted = fit(value.clone(), &droppables, Some(100_000));
        assert_eq!(fitted["fits"], true);
        assert!(fitted.get("dropped").is_none());
        assert_eq!(fitted["results"], value["results"]);
    }

    #[test]
    fn excerpts_go_first_and_the_last_result_loses_its_excerpt_first() {
        let (value, droppables) = search_like();
        let full = chars(&value);
        // Room for everything but about one excerpt.
        let fitted = fit(value, &droppables, Some(((full - 150) / 4) as u64));
        assert_eq!(fitted["fits"], true);
        assert_eq!(fitted["dropped"], json!(["excerpts"]));
        assert!(fitted["results"][1].get("excerpt").is_none());
        assert!(fitted["results"][0].get("excerpt").is_some());
        assert_eq!(fitted["related"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn related_goes_after_excerpts_and_only_as_much_as_needed() {
        let (value, droppables) = search_like();
        let without_excerpts = {
            let mut v = value.clone();
            for r in v["results"].as_array_mut().unwrap() {
                r.as_object_mut().unwrap().remove("excerpt");
            }
            chars(&v)
        };
        let fitted = fit(
            value,
            &droppables,
            Some(((without_excerpts + 10) / 4) as u64),
        );
        assert_eq!(fitted["fits"], true, "{fitted}");
        assert_eq!(fitted["dropped"], json!(["excerpts", "related"]));
        assert_eq!(fitted["related"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn a_core_over_the_budget_is_kept_whole_with_fits_false() {
        let (value, droppables) = search_like();
        let fitted = fit(value, &droppables, Some(1));
        assert_eq!(fitted["fits"], false);
        assert_eq!(fitted["query"], "auth");
        assert_eq!(fitted["results"][0]["id"], "document:a.md");
        assert_eq!(fitted["results"][1]["title"], "B");
        assert_eq!(fitted["related"], json!([]));
    }

    fn arbitrary_response() -> impl Strategy<Value = (Value, Vec<Droppable>, u64)> {
        (
            "[a-z]{0,40}",
            prop::collection::vec(("[a-z]{1,8}", "[ -~]{0,60}"), 0..6),
            prop::collection::vec("[ -~]{0,40}", 0..8),
            prop::collection::vec("[a-z]{0,30}", 0..8),
            0u64..200,
        )
            .prop_map(|(core, results, related, neighbours, budget)| {
                let mut droppables = Vec::new();
                let results: Vec<Value> = results
                    .iter()
                    .enumerate()
                    .map(|(i, (id, excerpt))| {
                        droppables.push(Droppable::key(
                            Part::Excerpts,
                            format!("/results/{i}"),
                            "excerpt",
                        ));
                        json!({"id": id, "excerpt": excerpt})
                    })
                    .collect();
                droppables.reverse();
                droppables.push(Droppable::tail(Part::Neighbours, "/neighbours/imports"));
                droppables.push(Droppable::tail(Part::Related, "/related"));
                let value = json!({
                    "core": core,
                    "results": results,
                    "related": related,
                    "neighbours": {"imports": neighbours},
                });
                (value, droppables, budget)
            })
    }

    proptest! {
        #[test]
        fn never_over_budget_unless_fits_is_false_and_the_core_stays((value, droppables, budget) in arbitrary_response()) {
            let fitted = fit(value.clone(), &droppables, Some(budget));
            let fits = fitted["fits"].as_bool().unwrap();
            let text = serde_json::to_string(&fitted).unwrap();
            if fits {
                prop_assert!(text.chars().count() <= budget as usize * CHARS_PER_TOKEN);
            } else {
                // Everything droppable is gone: only the core is left.
                prop_assert!(fitted["related"].as_array().unwrap().is_empty());
                prop_assert!(fitted["neighbours"]["imports"].as_array().unwrap().is_empty());
                for r in fitted["results"].as_array().unwrap() {
                    prop_assert!(r.get("excerpt").is_none());
                }
            }
            prop_assert_eq!(&fitted["core"], &value["core"]);
            let ids = |v: &Value| v["results"].as_array().unwrap().iter().map(|r| r["id"].clone()).collect::<Vec<_>>();
            prop_assert_eq!(ids(&fitted), ids(&value));
        }
    }
}
