//! The rule families: relay or single-lap sowing, times the capture mode.
//! Each family gets its own straight-line sowing loop through const generic
//! parameters (`RELAY: bool`, `CAP: u8`); [`with_family!`] is the one place
//! that maps a [`crate::Rules`] value to them.

/// Capture across (see [`crate::rules::capture::capture_across`]).
pub(crate) const ACROSS: u8 = 0;
/// The 2-or-3 chain (see [`crate::rules::capture::capture_two_three`]).
pub(crate) const TWO_THREE: u8 = 1;
/// Collect on 4 (see [`crate::rules::sow::collect_lap`]).
pub(crate) const COLLECT_FOUR: u8 = 2;

/// `with_family!(rules, |RELAY, CAP| body)`: `body` with the const
/// parameters of `rules`' family bound to the names given, for a body that
/// calls a generic specialised by them (`sow_mode::<RELAY, CAP>(..)`). The
/// body is compiled once a family: six straight-line copies made by the
/// compiler, one rules implementation in the source.
macro_rules! with_family {
    ($rules:expr, |$relay:ident, $cap:ident| $body:expr) => {{
        use $crate::rules::family::{ACROSS, COLLECT_FOUR, TWO_THREE};
        use $crate::rules::Capture;
        let rules: &$crate::rules::Rules = $rules;
        match (rules.relay(), rules.capture()) {
            (true, Capture::Across) => {
                const $relay: bool = true;
                const $cap: u8 = ACROSS;
                $body
            }
            (true, Capture::TwoThree) => {
                const $relay: bool = true;
                const $cap: u8 = TWO_THREE;
                $body
            }
            (true, Capture::CollectFour) => {
                const $relay: bool = true;
                const $cap: u8 = COLLECT_FOUR;
                $body
            }
            (false, Capture::Across) => {
                const $relay: bool = false;
                const $cap: u8 = ACROSS;
                $body
            }
            (false, Capture::TwoThree) => {
                const $relay: bool = false;
                const $cap: u8 = TWO_THREE;
                $body
            }
            (false, Capture::CollectFour) => {
                const $relay: bool = false;
                const $cap: u8 = COLLECT_FOUR;
                $body
            }
        }
    }};
}
pub(crate) use with_family;
