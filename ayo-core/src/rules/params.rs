//! Rule sets: every parameter of the Ayo family as one validated [`Rules`] value,
//! and the named presets.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::Player;

/// How a lap's last seed captures (docs/rules.md, "A move").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Capture {
    /// The last seed lands in an empty pit of the mover's own row: take the facing pit.
    Across,
    /// The last seed makes 2 or 3 in the opponent's row: take it and the run of 2s and 3s before it.
    TwoThree,
    /// Every drop that makes a pit hold exactly 4 collects those 4 at once.
    CollectFour,
}

/// Who receives a 4 collected under [`Capture::CollectFour`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FoursTo {
    /// The mover takes every 4 (the web app's rule).
    Mover,
    /// A 4 made mid-lap goes to the owner of its row; one made by the last seed goes to the mover.
    PitOwner,
}

/// What happens to a capture that would leave the opponent's row empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GrandSlam {
    /// The capture stands.
    Allowed,
    /// The move is sown but nothing is captured.
    NoCapture,
}

/// The obligation to give seeds to an opponent whose row is empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Feeding {
    /// No constraint.
    Off,
    /// Only moves that leave seeds in the opponent's row are legal (there may be none).
    Strict,
    /// As `Strict` when at least one such move exists, otherwise every move is legal.
    IfPossible,
    /// As `IfPossible`, at every move: a move may leave the opponent's row
    /// empty only when every move would (the rules card's starvation rule).
    NoStarving,
}

/// Where the seeds left on the board go when the game ends without a target win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StuckSeeds {
    /// All of them to the player who is not stuck (Russ's rule, the web app's sweep).
    ToOpponent,
    /// Each player takes the seeds in their own row.
    OwnSide,
}

/// Whether a repeated position ends the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Repetition {
    /// Repetitions do not end the game.
    Off,
    /// A position seen before since the last capture ends the game; each player takes their own row.
    OwnSide,
}

/// Every parameter of a rule set, unvalidated. Turn it into [`Rules`] with
/// [`Rules::new`] (or `TryFrom`), which checks that the combination can be played.
///
/// ```
/// use ayo_core::{Capture, RuleParams, Rules};
/// let mut params = Rules::preset("ayoayo").unwrap().params();
/// params.capture = Capture::TwoThree;
/// let rules = Rules::new(params).unwrap();
/// assert_eq!(rules.capture(), Capture::TwoThree);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleParams {
    /// Relay sowing: a last seed in an occupied pit lifts it and sowing goes on.
    pub relay: bool,
    /// How captures are made.
    pub capture: Capture,
    /// With `Across`: the capturing seed goes to the store with the captured pit.
    pub capturing_seed_taken: bool,
    /// With `CollectFour`: who receives the 4s.
    pub fours_to: FoursTo,
    /// A lap never drops into the pit it was lifted from.
    pub skip_origin: bool,
    /// Captures that would empty the opponent's row.
    pub grand_slam: GrandSlam,
    /// The obligation to feed an empty opponent row.
    pub feeding: Feeding,
    /// Where seeds left on the board go when the player to move is stuck.
    pub stuck_seeds: StuckSeeds,
    /// A store holding at least this many seeds wins at once (`None`: play to the end).
    pub target: Option<u16>,
    /// The game ends after this many moves in a row without a capture (`None`: no limit).
    pub move_limit: Option<u16>,
    /// Whether a repeated position ends the game.
    pub repetition: Repetition,
    /// Seeds in each pit at the start.
    pub seeds_per_pit: u8,
    /// The player who moves first in the start position.
    pub first_player: Player,
}

/// The largest number of seeds in one pit at the start (12 pits × 21 = 252 fits a byte).
pub const MAX_SEEDS_PER_PIT: u8 = 21;

/// A validated rule set. Any combination of parameters that can be played is a
/// valid rule set; [`Rules::new`] rejects the others with a [`RulesError`].
///
/// ```
/// use ayo_core::Rules;
/// let rules = Rules::preset("oware").unwrap();
/// assert!(!rules.relay());
/// assert_eq!(rules.total_seeds(), 48);
/// let json = serde_json::to_string(&rules).unwrap();
/// assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), rules);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RuleParams", into = "RuleParams")]
pub struct Rules {
    p: RuleParams,
}

/// One reason a set of [`RuleParams`] cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// A parameter is out of its range.
    #[error("rule parameter `{param}` is invalid: {why}")]
    Invalid {
        /// The parameter's name, as in [`RuleParams`].
        param: &'static str,
        /// Why the value cannot be played.
        why: String,
    },
    /// A preset name that does not exist.
    #[error("unknown rules preset `{name}`; valid presets: ayoayo, ayo, olopon, oware")]
    UnknownPreset {
        /// The name that was asked for.
        name: String,
    },
    /// A parameter name that does not exist.
    #[error("unknown rule parameter `{name}`; valid parameters: {}", PARAM_NAMES.join(", "))]
    UnknownParam {
        /// The name that was given.
        name: String,
    },
    /// A parameter value that could not be read.
    #[error("rule parameter `{param}` cannot take the value `{value}`; expected {expected}")]
    BadValue {
        /// The parameter's name.
        param: &'static str,
        /// The text that was given.
        value: String,
        /// What would have been accepted.
        expected: &'static str,
    },
}

/// The named presets (docs/rules.md, "Presets").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// Russ's Ayoayo: relay sowing, capture across, strict feeding, sweep to the opponent.
    Ayoayo,
    /// The web app's standard rules: relay sowing, collect on 4, feed if possible, 60-move limit.
    Ayo,
    /// Ayò Ọlọ́pọ́n: single laps, 2-or-3 chains, forfeited grand slam, 40-move limit.
    Olopon,
    /// Standard Oware (abapa): single laps, 2-or-3 chains, repetition ends the game.
    Oware,
}

impl Preset {
    /// Every preset, in the order of docs/rules.md.
    pub const ALL: [Preset; 4] = [Preset::Ayoayo, Preset::Ayo, Preset::Olopon, Preset::Oware];

    /// The preset's name, as accepted by [`Rules::preset`].
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Ayoayo => "ayoayo",
            Preset::Ayo => "ayo",
            Preset::Olopon => "olopon",
            Preset::Oware => "oware",
        }
    }

    /// The preset's parameters.
    pub const fn params(self) -> RuleParams {
        let base = RuleParams {
            relay: true,
            capture: Capture::Across,
            capturing_seed_taken: true,
            fours_to: FoursTo::Mover,
            skip_origin: true,
            grand_slam: GrandSlam::Allowed,
            feeding: Feeding::Strict,
            stuck_seeds: StuckSeeds::ToOpponent,
            target: Some(25),
            move_limit: None,
            repetition: Repetition::Off,
            seeds_per_pit: 4,
            first_player: Player::South,
        };
        match self {
            Preset::Ayoayo => base,
            Preset::Ayo => RuleParams {
                capture: Capture::CollectFour,
                feeding: Feeding::IfPossible,
                move_limit: Some(60),
                ..base
            },
            Preset::Olopon => RuleParams {
                relay: false,
                capture: Capture::TwoThree,
                grand_slam: GrandSlam::NoCapture,
                stuck_seeds: StuckSeeds::OwnSide,
                move_limit: Some(40),
                ..base
            },
            Preset::Oware => RuleParams {
                relay: false,
                capture: Capture::TwoThree,
                grand_slam: GrandSlam::NoCapture,
                stuck_seeds: StuckSeeds::OwnSide,
                repetition: Repetition::OwnSide,
                ..base
            },
        }
    }

    /// The preset's rules.
    pub fn rules(self) -> Rules {
        Rules { p: self.params() }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = RulesError;
    fn from_str(name: &str) -> Result<Self, RulesError> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| RulesError::UnknownPreset {
                name: name.to_owned(),
            })
    }
}

/// Parameter names in the order of [`RuleParams`], as used by records and `key=value` overrides.
pub const PARAM_NAMES: [&str; 13] = [
    "relay",
    "capture",
    "capturing_seed_taken",
    "fours_to",
    "skip_origin",
    "grand_slam",
    "feeding",
    "stuck_seeds",
    "target",
    "move_limit",
    "repetition",
    "seeds_per_pit",
    "first_player",
];

impl RuleParams {
    /// Every reason these parameters cannot be played (empty when they can).
    pub fn problems(&self) -> Vec<RulesError> {
        let mut out = Vec::new();
        let spp = self.seeds_per_pit;
        if spp == 0 || spp > MAX_SEEDS_PER_PIT {
            out.push(RulesError::Invalid {
                param: "seeds_per_pit",
                why: format!("{spp} is outside 1..={MAX_SEEDS_PER_PIT}"),
            });
        }
        let total = 12 * u16::from(spp);
        if let Some(t) = self.target {
            if t == 0 {
                out.push(RulesError::Invalid {
                    param: "target",
                    why: "a target of 0 is won before the first move; use none to play to the end"
                        .into(),
                });
            } else if spp != 0 && spp <= MAX_SEEDS_PER_PIT && t > total {
                out.push(RulesError::Invalid {
                    param: "target",
                    why: format!(
                        "{t} can never be reached with {total} seeds; use none to play to the end"
                    ),
                });
            }
        }
        if self.move_limit == Some(0) {
            out.push(RulesError::Invalid {
                param: "move_limit",
                why: "a limit of 0 moves ends the game before it starts; use none for no limit"
                    .into(),
            });
        }
        out
    }

    /// Sets one parameter from its text form (`relay=true`, `target=none`, `capture=two_three`).
    ///
    /// Numbers are plain decimal, as the printer writes them: `0`, or digits
    /// that do not start with `0`; no sign, no leading zero, no spaces
    /// (`docs/notation.md` has the grammar).
    ///
    /// ```
    /// use ayo_core::{Rules, Feeding};
    /// let mut p = Rules::preset("ayo").unwrap().params();
    /// p.set("feeding", "off").unwrap();
    /// assert_eq!(p.feeding, Feeding::Off);
    /// assert!(p.set("feeding", "sometimes").is_err());
    /// p.set("target", "30").unwrap();
    /// assert!(p.set("target", "030").is_err() && p.set("target", "+30").is_err());
    /// ```
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), RulesError> {
        fn bad(param: &'static str, value: &str, expected: &'static str) -> RulesError {
            RulesError::BadValue {
                param,
                value: value.to_owned(),
                expected,
            }
        }
        fn boolean(param: &'static str, v: &str) -> Result<bool, RulesError> {
            match v {
                "true" | "1" | "on" | "yes" => Ok(true),
                "false" | "0" | "off" | "no" => Ok(false),
                _ => Err(bad(param, v, "true or false")),
            }
        }
        /// A number in its one spelling: `0`, or ASCII digits not starting with `0`.
        fn number<T: FromStr>(v: &str) -> Option<T> {
            let digits = v.bytes().all(|b| b.is_ascii_digit());
            let canonical = digits && !v.is_empty() && (v == "0" || !v.starts_with('0'));
            if canonical {
                v.parse().ok()
            } else {
                None
            }
        }
        fn opt_u16(param: &'static str, v: &str) -> Result<Option<u16>, RulesError> {
            if v == "none" {
                Ok(None)
            } else {
                number(v)
                    .map(Some)
                    .ok_or_else(|| bad(param, v, "a number 1..=65535 or none"))
            }
        }
        fn word<T: for<'de> Deserialize<'de>>(
            param: &'static str,
            v: &str,
            expected: &'static str,
        ) -> Result<T, RulesError> {
            serde_json::from_value(serde_json::Value::String(v.to_owned()))
                .map_err(|_| bad(param, v, expected))
        }
        match name {
            "relay" => self.relay = boolean("relay", value)?,
            "capture" => {
                self.capture = word("capture", value, "across, two_three or collect_four")?
            }
            "capturing_seed_taken" => {
                self.capturing_seed_taken = boolean("capturing_seed_taken", value)?
            }
            "fours_to" => self.fours_to = word("fours_to", value, "mover or pit_owner")?,
            "skip_origin" => self.skip_origin = boolean("skip_origin", value)?,
            "grand_slam" => self.grand_slam = word("grand_slam", value, "allowed or no_capture")?,
            "feeding" => {
                self.feeding = word("feeding", value, "off, strict, if_possible or no_starving")?
            }
            "stuck_seeds" => {
                self.stuck_seeds = word("stuck_seeds", value, "to_opponent or own_side")?
            }
            "target" => self.target = opt_u16("target", value)?,
            "move_limit" => self.move_limit = opt_u16("move_limit", value)?,
            "repetition" => self.repetition = word("repetition", value, "off or own_side")?,
            "seeds_per_pit" => {
                self.seeds_per_pit =
                    number(value).ok_or_else(|| bad("seeds_per_pit", value, "a number 1..=21"))?
            }
            "first_player" => {
                self.first_player = value
                    .parse()
                    .map_err(|_| bad("first_player", value, "south or north"))?
            }
            _ => {
                return Err(RulesError::UnknownParam {
                    name: name.to_owned(),
                })
            }
        }
        Ok(())
    }

    /// The text form of one parameter, as accepted by [`RuleParams::set`].
    pub fn get(&self, name: &str) -> Option<String> {
        fn word<T: Serialize>(v: T) -> String {
            match serde_json::to_value(v) {
                Ok(serde_json::Value::String(s)) => s,
                _ => unreachable!("rule enums serialize as strings"),
            }
        }
        fn opt(v: Option<u16>) -> String {
            v.map_or_else(|| "none".to_owned(), |n| n.to_string())
        }
        Some(match name {
            "relay" => self.relay.to_string(),
            "capture" => word(self.capture),
            "capturing_seed_taken" => self.capturing_seed_taken.to_string(),
            "fours_to" => word(self.fours_to),
            "skip_origin" => self.skip_origin.to_string(),
            "grand_slam" => word(self.grand_slam),
            "feeding" => word(self.feeding),
            "stuck_seeds" => word(self.stuck_seeds),
            "target" => opt(self.target),
            "move_limit" => opt(self.move_limit),
            "repetition" => word(self.repetition),
            "seeds_per_pit" => self.seeds_per_pit.to_string(),
            "first_player" => self.first_player.to_string(),
            _ => return None,
        })
    }
}

impl TryFrom<RuleParams> for Rules {
    type Error = RulesError;
    fn try_from(p: RuleParams) -> Result<Self, RulesError> {
        Rules::new(p)
    }
}

impl From<Rules> for RuleParams {
    fn from(r: Rules) -> RuleParams {
        r.p
    }
}

impl Default for Rules {
    /// The `ayoayo` preset.
    fn default() -> Self {
        Preset::Ayoayo.rules()
    }
}

impl Rules {
    /// Validates a parameter set. The error is the first problem; use
    /// [`RuleParams::problems`] to list them all.
    pub fn new(p: RuleParams) -> Result<Rules, RulesError> {
        match p.problems().into_iter().next() {
            Some(e) => Err(e),
            None => Ok(Rules { p }),
        }
    }

    /// A named preset (`ayoayo`, `ayo`, `olopon`, `oware`).
    ///
    /// ```
    /// use ayo_core::Rules;
    /// assert!(Rules::preset("ayo").is_ok());
    /// let err = Rules::preset("awale").unwrap_err();
    /// assert!(err.to_string().contains("ayoayo, ayo, olopon, oware"));
    /// ```
    pub fn preset(name: &str) -> Result<Rules, RulesError> {
        Ok(name.parse::<Preset>()?.rules())
    }

    /// The parameters of this rule set.
    pub const fn params(&self) -> RuleParams {
        self.p
    }

    /// The preset these rules are exactly, if any.
    pub fn as_preset(&self) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.params() == self.p)
    }

    /// The preset these rules differ least from (the first in
    /// [`Preset::ALL`] on a tie) and the names of the parameters that
    /// differ, in the order of [`PARAM_NAMES`]: the record form's preset and
    /// overrides.
    ///
    /// ```
    /// use ayo_core::{Preset, Rules};
    /// let rules: Rules = "oware[target=none]".parse().unwrap();
    /// assert_eq!(rules.closest_preset(), (Preset::Oware, vec!["target"]));
    /// ```
    pub fn closest_preset(&self) -> (Preset, Vec<&'static str>) {
        let diffs = |p: Preset| -> Vec<&'static str> {
            let base = p.params();
            PARAM_NAMES
                .iter()
                .copied()
                .filter(|n| base.get(n) != self.p.get(n))
                .collect()
        };
        Preset::ALL
            .into_iter()
            .map(|p| (p, diffs(p)))
            .min_by_key(|(_, d)| d.len())
            .expect("there are presets")
    }

    /// Relay sowing.
    pub const fn relay(&self) -> bool {
        self.p.relay
    }
    /// The capture rule.
    pub const fn capture(&self) -> Capture {
        self.p.capture
    }
    /// Whether an across capture takes the capturing seed.
    pub const fn capturing_seed_taken(&self) -> bool {
        self.p.capturing_seed_taken
    }
    /// Who receives collected 4s.
    pub const fn fours_to(&self) -> FoursTo {
        self.p.fours_to
    }
    /// Whether laps skip the pit they were lifted from.
    pub const fn skip_origin(&self) -> bool {
        self.p.skip_origin
    }
    /// The grand slam rule.
    pub const fn grand_slam(&self) -> GrandSlam {
        self.p.grand_slam
    }
    /// The feeding rule.
    pub const fn feeding(&self) -> Feeding {
        self.p.feeding
    }
    /// Where stuck seeds go.
    pub const fn stuck_seeds(&self) -> StuckSeeds {
        self.p.stuck_seeds
    }
    /// The winning store size, if any.
    pub const fn target(&self) -> Option<u16> {
        self.p.target
    }
    /// The no-capture move limit, if any.
    pub const fn move_limit(&self) -> Option<u16> {
        self.p.move_limit
    }
    /// The repetition rule.
    pub const fn repetition(&self) -> Repetition {
        self.p.repetition
    }
    /// Seeds per pit at the start.
    pub const fn seeds_per_pit(&self) -> u8 {
        self.p.seeds_per_pit
    }
    /// The player who moves first from the start position.
    pub const fn first_player(&self) -> Player {
        self.p.first_player
    }
    /// All seeds in play: 12 × seeds per pit.
    pub const fn total_seeds(&self) -> u16 {
        12 * self.p.seeds_per_pit as u16
    }
}
