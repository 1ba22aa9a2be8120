//! Text records of rules, positions and games: one line each, printed and
//! parsed with exact round-trip.
//!
//! ## Rules
//! A preset name, optionally followed by overrides of its parameters in
//! brackets, with no spaces: `ayoayo`, `oware[target=none]`,
//! `ayoayo[capture=two_three,stuck_seeds=own_side]`. Keys and values are those
//! of [`RuleParams::set`] (numbers without sign or leading zero); each key at
//! most once. Printing picks the preset that needs the fewest overrides and
//! lists them in the order of [`crate::PARAM_NAMES`]. The grammar, as EBNF, is in
//! `docs/notation.md`.
//!
//! ## Position (FEN-like), six fields separated by spaces
//! `ayoayo 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0`
//! 1. rules, as above;
//! 2. the board: South's pits 0..=5, `/`, North's pits 6..=11, each row in sowing order;
//! 3. stores: South's, `-`, North's;
//! 4. the player to move: `s` or `n`;
//! 5. moves played in a row without a capture;
//! 6. moves played since the start of the game.
//!
//! ## Game
//! The start position's record, ` | `, then the moves as the mover's pit
//! numbers 1..=6 separated by spaces:
//! `oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 | 3 1 6`.
//! Every move is replayed and checked when parsed.
//!
//! ```
//! use ayo_core::{record, Game, Rules};
//! let mut game = Game::new(Rules::preset("oware")?);
//! game.play_action(2)?;
//! let text = game.record();
//! assert_eq!(text, "oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 | 3");
//! assert_eq!(record::parse_game(&text)?, game);
//! let err = record::parse_position("oware 4,4,4,4,4,4/4,4,x,4,4,4 0-0 s 0 0").unwrap_err();
//! assert_eq!((err.field, err.offset), ("board", 22));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt::{self, Write as _};
use std::str::FromStr;

use crate::games::game::Game;
use crate::rules::position::{Position, PITS};
use crate::rules::setup::Setup;
use crate::rules::{Preset, RuleParams, Rules};
use crate::Player;

/// Malformed record text: which field, where (byte offset), and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad {field} at offset {offset}: {message}")]
pub struct RecordError {
    /// The field: `rules`, `board`, `stores`, `to_move`, `no_capture`, `ply`,
    /// `separator`, `move`, `position` (the fields parse but do not make a
    /// valid position), or `end` (text left over or missing).
    pub field: &'static str,
    /// Byte offset of the offending text.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

fn err(field: &'static str, offset: usize, message: impl Into<String>) -> RecordError {
    RecordError {
        field,
        offset,
        message: message.into(),
    }
}

/// The record form of `rules`.
pub fn rules_to_text(rules: &Rules) -> String {
    let params = rules.params();
    let (preset, names) = rules.closest_preset();
    let mut out = preset.name().to_owned();
    if !names.is_empty() {
        out.push('[');
        for (i, n) in names.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, "{n}={}", params.get(n).unwrap_or_default());
        }
        out.push(']');
    }
    out
}

/// Parses a rules record (see the module docs).
pub fn parse_rules(text: &str) -> Result<Rules, RecordError> {
    parse_rules_at(text, 0)
}

fn parse_rules_at(text: &str, base: usize) -> Result<Rules, RecordError> {
    let (name, overrides) = match text.find('[') {
        Some(i) => {
            if !text.ends_with(']') {
                return Err(err(
                    "rules",
                    base + text.len(),
                    "missing `]` after the overrides",
                ));
            }
            (&text[..i], Some((i + 1, &text[i + 1..text.len() - 1])))
        }
        None => (text, None),
    };
    let preset: Preset = name
        .parse()
        .map_err(|e: crate::RulesError| err("rules", base, e.to_string()))?;
    let mut params: RuleParams = preset.params();
    if let Some((start, body)) = overrides {
        let mut at = base + start;
        let mut seen: Vec<&str> = Vec::new();
        for item in body.split(',') {
            let Some((k, v)) = item.split_once('=') else {
                return Err(err("rules", at, format!("`{item}` is not key=value")));
            };
            if seen.contains(&k) {
                return Err(err(
                    "rules",
                    at,
                    format!("rule parameter `{k}` is given twice"),
                ));
            }
            seen.push(k);
            params
                .set(k, v)
                .map_err(|e| err("rules", at, e.to_string()))?;
            at += item.len() + 1;
        }
    }
    Rules::new(params).map_err(|e| err("rules", base, e.to_string()))
}

/// The record of `pos` under `rules`.
///
/// ```
/// use ayo_core::{record, Position, Rules};
/// let rules = Rules::preset("ayo").unwrap();
/// let text = record::position_to_text(&rules, &Position::start(&rules));
/// assert_eq!(text, "ayo 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0");
/// assert_eq!(record::parse_position(&text).unwrap(), (rules, Position::start(&rules)));
/// ```
pub fn position_to_text(rules: &Rules, pos: &Position) -> String {
    let b = pos.board();
    let row = |r: &[u8]| {
        r.iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let s = pos.stores();
    format!(
        "{} {}/{} {}-{} {} {} {}",
        rules_to_text(rules),
        row(&b[..6]),
        row(&b[6..]),
        s[0],
        s[1],
        if pos.to_move() == Player::South {
            's'
        } else {
            'n'
        },
        pos.no_capture(),
        pos.ply()
    )
}

/// Splits on ASCII whitespace, keeping each token's byte offset.
fn tokens(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in text.char_indices() {
        if ch.is_ascii_whitespace() {
            if let Some(s) = start.take() {
                out.push((s, &text[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

fn number<T: std::str::FromStr>(
    field: &'static str,
    at: usize,
    t: &str,
    what: &str,
) -> Result<T, RecordError> {
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err(field, at, format!("`{t}` is not {what}")));
    }
    t.parse()
        .map_err(|_| err(field, at, format!("`{t}` is out of range for {what}")))
}

fn parse_position_tokens(
    toks: &[(usize, &str)],
    end: usize,
) -> Result<(Rules, Position), RecordError> {
    const FIELDS: [&str; 6] = ["rules", "board", "stores", "to_move", "no_capture", "ply"];
    if toks.len() < 6 {
        let missing = FIELDS[toks.len()];
        return Err(err(
            missing,
            end,
            format!("missing field `{missing}` (a position has 6 fields)"),
        ));
    }
    let rules = parse_rules_at(toks[0].1, toks[0].0)?;
    let (at, text) = toks[1];
    let mut board = [0u8; PITS];
    let Some((south, north)) = text.split_once('/') else {
        return Err(err("board", at, "expected two rows separated by `/`"));
    };
    let mut offset = at;
    let mut pit = 0;
    for (r, row) in [south, north].into_iter().enumerate() {
        let cells: Vec<&str> = row.split(',').collect();
        if cells.len() != 6 {
            return Err(err(
                "board",
                offset,
                format!("row {} has {} pits; expected 6", r + 1, cells.len()),
            ));
        }
        for c in cells {
            board[pit] = number("board", offset, c, "a seed count 0..=255")?;
            pit += 1;
            offset += c.len() + 1;
        }
    }
    let (at, text) = toks[2];
    let Some((s, n)) = text.split_once('-') else {
        return Err(err(
            "stores",
            at,
            "expected South's and North's stores as `s-n`",
        ));
    };
    let stores = [
        number("stores", at, s, "a seed count 0..=255")?,
        number("stores", at + s.len() + 1, n, "a seed count 0..=255")?,
    ];
    let (at, text) = toks[3];
    let to_move = match text {
        "s" => Player::South,
        "n" => Player::North,
        _ => return Err(err("to_move", at, format!("`{text}` is not `s` or `n`"))),
    };
    let no_capture = number("no_capture", toks[4].0, toks[4].1, "a move count 0..=65535")?;
    let ply = number("ply", toks[5].0, toks[5].1, "a move count")?;
    let setup = Setup {
        board,
        stores,
        to_move,
        no_capture,
        ply,
    };
    let pos = Position::from_setup(&rules, &setup)
        .map_err(|e| err("position", toks[1].0, e.to_string()))?;
    Ok((rules, pos))
}

/// Parses a position record (see the module docs).
pub fn parse_position(text: &str) -> Result<(Rules, Position), RecordError> {
    let toks = tokens(text);
    if toks.len() > 6 {
        return Err(err(
            "end",
            toks[6].0,
            "text after the six fields of a position",
        ));
    }
    parse_position_tokens(&toks, text.len())
}

/// The record of a game: its start position and its moves.
pub fn game_to_text(game: &Game) -> String {
    let mut out = position_to_text(game.rules(), game.start());
    out.push_str(" |");
    for mv in game.moves() {
        let _ = write!(out, " {mv}");
    }
    out
}

/// Parses a game record, replaying and checking every move.
pub fn parse_game(text: &str) -> Result<Game, RecordError> {
    let toks = tokens(text);
    let Some(bar) = toks.iter().position(|&(_, t)| t == "|") else {
        return Err(err(
            "separator",
            text.len(),
            "missing ` | ` between the start position and the moves",
        ));
    };
    if bar > 6 {
        return Err(err(
            "separator",
            toks[6].0,
            "expected ` | ` after the six fields of the start position",
        ));
    }
    let (rules, start) = parse_position_tokens(&toks[..bar], toks[bar].0)?;
    let mut game = Game::from_position(rules, start);
    for &(at, t) in &toks[bar + 1..] {
        let n: u8 = number("move", at, t, "a pit number 1..=6")?;
        let mv = game
            .position()
            .move_for_relative_pit(n)
            .map_err(|e| err("move", at, e.to_string()))?;
        game.play(mv).map_err(|e| {
            err(
                "move",
                at,
                format!("move {} ({t}) is illegal: {e}", game.moves().len() + 1),
            )
        })?;
    }
    Ok(game)
}

impl fmt::Display for Rules {
    /// The record form: a preset name, with `[key=value,…]` overrides where the
    /// rules differ from it (see [`crate::games::record`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&rules_to_text(self))
    }
}

impl FromStr for Rules {
    type Err = RecordError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_rules(s)
    }
}

impl Game {
    /// Parses a game record (see [`parse_game`]).
    pub fn from_record(text: &str) -> Result<Game, RecordError> {
        parse_game(text)
    }

    /// The game record (see [`crate::games::record`]).
    pub fn record(&self) -> String {
        game_to_text(self)
    }
}
