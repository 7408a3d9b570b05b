//! A table: rows of cells under a header, and the cell formats every report shares. Studies
//! and the results model build tables; output/ prints them as text, export/ as Markdown.
use std::fmt::Write as _;

use crate::stats::Ratio;

/// Rows of cells under a header.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// The width of terminal the brief report fits: every line of it, for bake-offs of the
/// built-in contenders.
pub const TERMINAL_COLUMNS: usize = 120;

/// The narrowest a wrapped last column gets before a table is left as wide as it is.
const MIN_WRAPPED_COLUMN: usize = 16;

/// `+2.0`, `-5.3`; `+0.0` for what rounds to zero from either side.
pub fn signed(percent: f64) -> String {
    if percent.abs() < 0.05 {
        return "+0.0".to_string();
    }
    format!("{percent:+.1}")
}

/// A ratio's 95% interval as percent changes: `[-6.1, -3.9]`.
pub fn interval(ratio: &Ratio) -> Option<String> {
    let (low, high) = ratio.percent_interval()?;
    Some(format!("[{}, {}]", signed(low), signed(high)))
}

/// A count rounded to an integer.
pub fn count(value: f64) -> String {
    format!("{:.0}", value)
}

pub fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `text` broken into lines of at most `width` characters where it can be: between its
/// ` · ` separated parts first, then between words; every line after the first starts
/// with `indent`. A word longer than a line keeps its line to itself.
pub fn wrap(text: &str, width: usize, indent: &str) -> String {
    let mut lines = vec![String::new()];
    for (i, part) in text.split(" · ").enumerate() {
        let part = if i == 0 {
            part.to_string()
        } else {
            format!("· {part}")
        };
        let last = lines.last_mut().expect("one line at least");
        let space = usize::from(!last.trim().is_empty());
        if chars(last) + space + chars(&part) <= width {
            if space == 1 {
                last.push(' ');
            }
            last.push_str(&part);
            continue;
        }
        if space == 1 {
            lines.push(indent.to_string());
        }
        push_words(&mut lines, &part, width, indent);
    }
    lines.join("\n")
}

/// `cell` in lines of at most `width` characters, broken between words.
fn wrap_cell(cell: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    push_words(&mut lines, cell, width, "");
    lines
}

/// Appends `text` word by word to the last of `lines`, starting a new line (with
/// `indent`) where the next word would pass `width`.
fn push_words(lines: &mut Vec<String>, text: &str, width: usize, indent: &str) {
    for word in text.split(' ') {
        let last = lines.last_mut().expect("one line at least");
        let empty = last.trim().is_empty();
        if !empty && chars(last) + 1 + chars(word) > width {
            lines.push(format!("{indent}{word}"));
        } else {
            if !empty {
                last.push(' ');
            }
            last.push_str(word);
        }
    }
}

fn chars(text: &str) -> usize {
    text.chars().count()
}

impl Table {
    /// The columns at `indices`, in that order.
    pub fn columns(&self, indices: &[usize]) -> Table {
        let pick = |row: &Vec<String>| {
            indices
                .iter()
                .map(|&i| row.get(i).cloned().unwrap_or_default())
                .collect()
        };
        Table {
            header: pick(&self.header),
            rows: self.rows.iter().map(pick).collect(),
        }
    }

    /// Each column's widest cell, the header's included, in characters.
    fn widths(&self) -> Vec<usize> {
        (0..self.header.len())
            .map(|i| {
                std::iter::once(&self.header)
                    .chain(&self.rows)
                    .map(|row| row.get(i).map_or(0, |cell| cell.chars().count()))
                    .max()
                    .unwrap_or(0)
            })
            .collect()
    }

    /// As [`Table::to_text`], in at most `width` characters a line where breaking the last
    /// column's cells (a free text: the allocator, the reason a run failed) between words
    /// gets it there: the rest of a wrapped row's cells stay blank on its further lines.
    pub fn to_text_within(&self, width: usize) -> String {
        let widths = self.widths();
        let Some((&last, others)) = widths.split_last() else {
            return self.to_text();
        };
        let before_last = others.iter().map(|w| w + 2).sum::<usize>();
        if before_last + last <= width || width < before_last + MIN_WRAPPED_COLUMN {
            return self.to_text();
        }
        let room = width - before_last;
        let split = |row: &Vec<String>| -> Vec<Vec<String>> {
            let (cells, last) = row.split_at(row.len().saturating_sub(1));
            let pieces = last
                .first()
                .map_or_else(Vec::new, |cell| wrap_cell(cell, room));
            pieces
                .into_iter()
                .enumerate()
                .map(|(i, piece)| {
                    let mut line = if i == 0 {
                        cells.to_vec()
                    } else {
                        vec![String::new(); cells.len()]
                    };
                    line.push(piece);
                    line
                })
                .collect()
        };
        let mut header = split(&self.header).into_iter();
        let first = header.next().unwrap_or_default();
        let header_lines: Vec<Vec<String>> = header.collect();
        let continued = header_lines.len();
        let rows = header_lines
            .into_iter()
            .chain(self.rows.iter().flat_map(split))
            .collect();
        Table {
            header: first,
            rows,
        }
        .render(&self.numeric_columns(), continued)
    }

    /// Which columns hold numbers in every row: those are right-aligned.
    fn numeric_columns(&self) -> Vec<bool> {
        (0..self.header.len())
            .map(|i| {
                self.rows.iter().all(|row| {
                    row.get(i).is_some_and(|cell| {
                        cell.starts_with(|c: char| c.is_ascii_digit() || "+-[".contains(c))
                    })
                })
            })
            .collect()
    }

    /// Columns padded to their widest cell, numbers right-aligned.
    pub fn to_text(&self) -> String {
        self.render(&self.numeric_columns(), 0)
    }

    /// The text table with `numeric` columns right-aligned; the first `header_lines` rows
    /// continue the header above the rule.
    fn render(&self, numeric: &[bool], header_lines: usize) -> String {
        let columns = self.header.len();
        let widths = self.widths();
        let mut out = String::new();
        let line = |row: &[String], out: &mut String| {
            let cells: Vec<String> = (0..columns)
                .map(|i| {
                    let cell = row.get(i).map_or("", String::as_str);
                    if numeric[i] {
                        format!("{cell:>w$}", w = widths[i])
                    } else {
                        format!("{cell:<w$}", w = widths[i])
                    }
                })
                .collect();
            let _ = writeln!(out, "{}", cells.join("  ").trim_end());
        };
        line(&self.header, &mut out);
        let (header_rest, rows) = self.rows.split_at(header_lines.min(self.rows.len()));
        for row in header_rest {
            line(row, &mut out);
        }
        let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
        line(&rule, &mut out);
        for row in rows {
            line(row, &mut out);
        }
        out
    }

    /// A GitHub-flavoured Markdown table; `|` in cells is escaped.
    pub fn to_markdown(&self) -> String {
        let escape = |cell: &String| cell.replace('|', "\\|");
        let mut out = String::new();
        let row = |cells: &[String]| {
            format!(
                "| {} |\n",
                cells.iter().map(escape).collect::<Vec<_>>().join(" | ")
            )
        };
        out.push_str(&row(&self.header));
        out.push_str(&format!(
            "|{}\n",
            self.header.iter().map(|_| "---|").collect::<String>()
        ));
        for cells in &self.rows {
            out.push_str(&row(cells));
        }
        out
    }
}
