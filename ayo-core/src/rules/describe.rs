//! The rules in words: [`Rules::describe`], a title and one sentence for each
//! parameter, as `ayo rules` prints them and `docs/rules.md` explains them.

use crate::rules::{Capture, Feeding, FoursTo, GrandSlam, Preset, Repetition, Rules, StuckSeeds};
use crate::Player;

impl Preset {
    /// The preset's title in words.
    pub const fn title(self) -> &'static str {
        match self {
            Preset::Ayoayo => "Ayoayo (Russ 1984): relay sowing with captures across",
            Preset::Ayo => "Ayo (the web app's standard rules): relay sowing, collect on 4",
            Preset::Olopon => "Ayò Ọlọ́pọ́n: single-lap sowing, 2-or-3 captures",
            Preset::Oware => {
                "Oware (abapa): single-lap sowing, 2-or-3 captures, repetition ends the game"
            }
        }
    }
}

impl Rules {
    /// The rules in words: a title, an empty line, then one sentence (a line
    /// starting with `- `) for each parameter, in the order a player meets
    /// them.
    ///
    /// ```
    /// use ayo_core::Rules;
    /// let lines = Rules::preset("oware")?.describe();
    /// assert!(lines[0].starts_with("Oware"));
    /// assert!(lines.iter().any(|l| l.starts_with("- Repetition:")));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn describe(&self) -> Vec<String> {
        let title = self.as_preset().map_or("Custom rules", Preset::title);
        let mut lines = vec![format!("{title}."), String::new()];
        let mut say = |s: &str| lines.push(format!("- {s}"));
        let seeds = self.seeds_per_pit();
        say(&format!(
            "Start: {seeds} seed{} in each of the 12 pits ({} in all), both stores empty; each \
             player owns the six pits nearest them, numbered 1 to 6 in sowing (anticlockwise) \
             order.",
            if seeds != 1 { "s" } else { "" },
            self.total_seeds()
        ));
        say(&format!(
            "{} moves first.",
            match self.first_player() {
                Player::South => "South",
                Player::North => "North",
            }
        ));
        say(if self.relay() {
            "Relay sowing: when the last seed of a lap lands in a pit that was occupied before \
             it, the mover lifts every seed of that pit and starts a new lap from the next pit \
             (a move that would relay forever is not legal)."
        } else {
            "Single-lap sowing: the mover lifts every seed of one of their pits and drops them \
             one per pit; the move ends with the last seed (no relay)."
        });
        match self.capture() {
            Capture::Across => say(&format!(
                "Capture across: when the last seed lands in an empty pit of the mover's own \
                 row and the facing pit holds seeds, the mover captures them {}.",
                if self.capturing_seed_taken() {
                    "plus the capturing seed"
                } else {
                    "(the capturing seed stays in its pit)"
                }
            )),
            Capture::TwoThree => say(
                "Capture of 2 or 3: if the last seed lands in the opponent's row and makes that \
                 pit hold 2 or 3, the mover captures it and then, walking backwards, each \
                 directly preceding opponent pit holding 2 or 3, stopping at the first that \
                 does not; the move ends.",
            ),
            Capture::CollectFour => {
                say(
                    "Collect on 4: every drop (mid-lap or last, either row) that makes a pit \
                     hold exactly 4 takes those 4 out at once, and sowing goes on with the \
                     seeds still in hand; a pit that already held 4 becomes 5 and stays.",
                );
                say(match self.fours_to() {
                    FoursTo::Mover => "Every 4 collected goes to the mover.",
                    FoursTo::PitOwner => {
                        "A 4 made mid-lap goes to the owner of that pit's row; a 4 made by the \
                         last seed goes to the mover."
                    }
                });
            }
        }
        say(if self.skip_origin() {
            "A lap of twelve or more seeds skips the pit it was lifted from."
        } else {
            "A lap of twelve or more seeds sows into the pit it was lifted from like any other \
             pit."
        });
        if self.capture() != Capture::CollectFour {
            say(match self.grand_slam() {
                GrandSlam::Allowed => {
                    "Grand slam: a capture that would leave the opponent's row empty stands."
                }
                GrandSlam::NoCapture => {
                    "Grand slam: a move whose capture would leave the opponent's row empty is \
                     legal and is sown, but nothing is captured."
                }
            });
        }
        say(match self.feeding() {
            Feeding::Strict => {
                "Feeding: when the opponent's row is empty, only moves that leave seeds in it \
                 after sowing and capture are legal (there may be none)."
            }
            Feeding::IfPossible => {
                "Feeding: when the opponent's row is empty, you must play a move that gives \
                 them seeds if one exists."
            }
            Feeding::NoStarving => {
                "Feeding: at every move, you must leave the opponent seeds in their row if a \
                 move does; when none does, every move is legal."
            }
            Feeding::Off => "Feeding: no move is required to give seeds to an empty row.",
        });
        say(&match self.target() {
            Some(t) => format!("A player whose store holds at least {t} seeds wins at once."),
            None => "There is no target: the game is played until it ends.".to_owned(),
        });
        say(&match self.move_limit() {
            Some(l) => format!(
                "After {l} moves in a row with nothing captured, the game ends and each player \
                 takes the seeds in their own row."
            ),
            None => "There is no move limit.".to_owned(),
        });
        say(match self.repetition() {
            Repetition::OwnSide => {
                "Repetition: a position (board, stores, player to move) that has already \
                 occurred since the last capture ends the game, and each player takes the seeds \
                 in their own row."
            }
            Repetition::Off => "A repeated position does not end the game.",
        });
        say(match self.stuck_seeds() {
            StuckSeeds::ToOpponent => {
                "A player with no legal move ends the game; the seeds left on the board go to \
                 the other player (the end-game sweep)."
            }
            StuckSeeds::OwnSide => {
                "A player with no legal move ends the game; each player takes the seeds in \
                 their own row."
            }
        });
        let half = self.total_seeds() / 2;
        say(&format!(
            "The higher store wins; equal stores ({half}-{half}) are a draw."
        ));
        lines
    }
}
