//! What hovers say about the language itself: the section of
//! `docs/LANGUAGE.md` that describes a declaration keyword, and the section
//! of `docs/ERRORS.md` that explains a diagnostic code.
//!
//! In: both documents, built into the binary (`include_str!`), and a word.
//! Out: Markdown text. Holds: the documents are the one source; nothing
//! here repeats what they say.

const LANGUAGE: &str = include_str!("../../docs/LANGUAGE.md");
const ERRORS: &str = include_str!("../../docs/ERRORS.md");

/// The words that start statements, as completion offers them.
pub const KEYWORDS: [&str; 18] = [
    "game", "roles", "turn", "board", "region", "pieces", "draw", "label", "reserve", "dice",
    "track", "counter", "param", "section", "extends", "rule", "replace", "drop",
];

/// The section of `docs/LANGUAGE.md` whose heading names `keyword` in
/// backquotes (`### \`pieces\` and \`draw\``), with the heading.
pub fn keyword(keyword: &str) -> Option<String> {
    if !KEYWORDS.contains(&keyword) {
        return None;
    }
    let quoted = format!("`{keyword}`");
    section(LANGUAGE, "### ", |heading| heading.contains(&quoted))
}

/// The section of `docs/ERRORS.md` headed by `code` (`## E0101 arity`).
pub fn code(code: &str) -> Option<String> {
    let valid = code.len() == 5
        && code.starts_with(['E', 'W'])
        && code[1..].bytes().all(|b| b.is_ascii_digit());
    if !valid {
        return None;
    }
    section(ERRORS, "## ", |heading| {
        heading.split_whitespace().next() == Some(code)
    })
}

/// The first heading of `level` that `wanted` accepts, and the text under
/// it up to the next heading of any level.
fn section(document: &str, level: &str, wanted: impl Fn(&str) -> bool) -> Option<String> {
    let mut lines = document.lines();
    let heading = lines.find(|l| l.starts_with(level) && wanted(&l[level.len()..]))?;
    let mut text = format!("{}\n", heading.trim_start_matches('#').trim());
    let mut in_code = false;
    for line in lines {
        if line.starts_with("```") {
            in_code = !in_code;
        }
        if !in_code && line.starts_with('#') {
            break;
        }
        // The fences tell the renderer nothing it knows: plain code blocks.
        let line = if line.starts_with("```") { "```" } else { line };
        text.push('\n');
        text.push_str(line);
    }
    Some(text.trim_end().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_keyword_and_code_has_its_section() {
        for k in KEYWORDS {
            let text = keyword(k).unwrap_or_else(|| panic!("no section for `{k}`"));
            assert!(text.contains(&format!("`{k}`")), "{text}");
        }
        for c in crate::diag::Code::ALL {
            let text = code(c.as_str()).unwrap_or_else(|| panic!("no section for {c}"));
            assert!(text.starts_with(c.as_str()), "{text}");
        }
        assert!(keyword("square").is_none());
        assert!(code("E9999").is_none());
    }

    #[test]
    fn a_section_stops_at_the_next_heading() {
        let text = keyword("roles").expect("roles");
        assert!(text.starts_with("`roles`\n"), "{text}");
        assert!(text.contains("Generates `role(yellow)."));
        assert!(!text.contains("### `turn`") && !text.contains("`turn` ("));
    }
}
