//! `ayo-solve`: build, verify and query the endgame databases, and solve the opening.
//!
//! ```text
//! ayo-solve build   --rules RULES --max-seeds N [--dir PATH] [--quiet] [--threads T]
//! ayo-solve verify  --rules RULES [--max-seeds N] [--from-seeds N] [--dir PATH] [--quiet]
//! ayo-solve value   "<position record>" [--dir PATH] [--budget NODES]
//! ayo-solve opening --rules RULES [--max-seeds N] [--dir PATH] [--budget NODES] [--bracket]
//! ayo-solve counted --rules RULES --max-seeds N [--dir PATH] [--budget NODES] [--bounds] [--verify] [--quiet] [--threads T]
//! ```
//! `counted` builds the counted databases of rules with a move limit
//! (`olopon`, `ayo`; values of board and no-capture count) and, with
//! `--budget`, searches the start position above them within that many nodes
//! (each first move, then the start; with `--bounds` only the start, reporting
//! the bounds on its value that the search proved within the budget);
//! `--verify` re-checks every stored value against the core's moves and end.
//! `--bracket` also searches every first move with endless play (repetitions
//! on the search path, and database boards whose bounds differ, at their
//! bound) scored as the best and as the worst for the side to move: equal
//! bounds mean the value does not depend on how endless play is scored.
//! `RULES` is a rules record (`ayoayo`, `ayoayo[stuck_seeds=own_side]`, …);
//! `--dir` defaults to `target/ayo-db`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use ayo_core::{record, Position, Rules};
use ayo_solve::build::report_line;
use ayo_solve::search::Endless;
use ayo_solve::{Database, Solver};

struct Args {
    command: String,
    positional: Vec<String>,
    rules: Option<String>,
    max_seeds: Option<usize>,
    dir: PathBuf,
    quiet: bool,
    threads: Option<i64>,
    budget: Option<u64>,
    bracket: bool,
    from_seeds: Option<usize>,
    verify: bool,
    bounds: bool,
}

const USAGE: &str = "usage:
  ayo-solve build   --rules RULES --max-seeds N [--dir PATH] [--quiet] [--threads T]
  ayo-solve verify  --rules RULES [--max-seeds N] [--from-seeds N] [--dir PATH] [--quiet]
  ayo-solve value   \"<position record>\" [--dir PATH] [--budget NODES]
  ayo-solve opening --rules RULES [--max-seeds N] [--dir PATH] [--budget NODES] [--bracket]
  ayo-solve counted --rules RULES --max-seeds N [--dir PATH] [--budget NODES] [--bounds] [--verify] [--quiet] [--threads T]";

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let command = it.next().ok_or("missing command")?;
    let mut a = Args {
        command,
        positional: Vec::new(),
        rules: None,
        max_seeds: None,
        dir: PathBuf::from("target/ayo-db"),
        quiet: false,
        threads: None,
        budget: None,
        bracket: false,
        from_seeds: None,
        verify: false,
        bounds: false,
    };
    while let Some(arg) = it.next() {
        let mut val = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--rules" => a.rules = Some(val("--rules")?),
            "--max-seeds" => {
                a.max_seeds = Some(
                    val("--max-seeds")?
                        .parse()
                        .map_err(|e| format!("--max-seeds: {e}"))?,
                )
            }
            "--dir" => a.dir = PathBuf::from(val("--dir")?),
            "--quiet" | "-q" => a.quiet = true,
            "--bracket" => a.bracket = true,
            "--verify" => a.verify = true,
            "--bounds" => a.bounds = true,
            "--from-seeds" => {
                a.from_seeds = Some(
                    val("--from-seeds")?
                        .parse()
                        .map_err(|e| format!("--from-seeds: {e}"))?,
                )
            }
            "--threads" => {
                a.threads = Some(
                    val("--threads")?
                        .parse()
                        .map_err(|e| format!("--threads: {e}"))?,
                )
            }
            "--budget" => {
                a.budget = Some(
                    val("--budget")?
                        .parse()
                        .map_err(|e| format!("--budget: {e}"))?,
                )
            }
            s if s.starts_with("--") => return Err(format!("unknown option {s}")),
            _ => a.positional.push(arg),
        }
    }
    Ok(a)
}

fn rules_of(a: &Args) -> Result<Rules, String> {
    let text = a.rules.as_deref().unwrap_or("ayoayo");
    record::parse_rules(text).map_err(|e| e.to_string())
}

fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// CPU seconds the calling thread has run (`/proc/thread-self/schedstat`),
/// NaN where that is not available.
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(f64::NAN, |ns| ns / 1e9)
}

fn run(a: Args) -> Result<(), String> {
    // The thread rule of every binding: none or 0 is every core, at most
    // ayo_core::threads::MAX_THREADS.
    let threads = ayo_core::threads::thread_count(a.threads).map_err(|e| e.to_string())?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .map_err(|e| e.to_string())?;
    let t0 = Instant::now();
    match a.command.as_str() {
        "build" => {
            let rules = rules_of(&a)?;
            let n = a.max_seeds.ok_or("build needs --max-seeds")?;
            let (db, reports) =
                Database::build(&rules, n, Some(&a.dir), a.quiet).map_err(|e| e.to_string())?;
            for r in &reports {
                println!("{}", report_line(r));
            }
            let total: u64 = reports.iter().map(|r| r.positions).sum();
            println!(
                "built {} layers 0..={} of {} ({} positions) in {:.1} s on {} threads; peak memory {:.0} MiB; files in {}",
                reports.len(),
                db.max_seeds(),
                db.key(),
                total,
                t0.elapsed().as_secs_f64(),
                rayon::current_num_threads(),
                peak_rss_mib().unwrap_or(f64::NAN),
                a.dir.display()
            );
        }
        "verify" => {
            let rules = rules_of(&a)?;
            let db = match a.max_seeds {
                Some(n) => Database::open(&rules, n, &a.dir),
                None => Database::open_all(&rules, &a.dir),
            }
            .map_err(|e| e.to_string())?;
            let from = a.from_seeds.unwrap_or(0);
            let rep = db.verify_from(from, a.quiet);
            println!(
                "verified layers {from}..={} of {}: {} positions, {} exact, {} cycle-scored, bounds of all ({} convention-dependent), {} failed ({:.1} s)",
                db.max_seeds(),
                db.key(),
                rep.checked,
                rep.exact,
                rep.cycle_scored,
                rep.convention_dependent,
                rep.failed,
                t0.elapsed().as_secs_f64()
            );
            for (n, r, stored, expected) in &rep.failures {
                println!("  layer {n} rank {r}: stored {stored}, expected {expected}");
            }
            if !rep.ok() {
                return Err("verification failed".into());
            }
        }
        "value" => {
            let text = a
                .positional
                .first()
                .ok_or("value needs a position record")?;
            let (rules, pos) = record::parse_position(text).map_err(|e| e.to_string())?;
            let db = Database::open_all(&rules, &a.dir).map_err(|e| e.to_string())?;
            let mut solver = Solver::new(db);
            solver.set_budget(a.budget);
            let moves = solver
                .move_values(&pos)
                .map_err(|e| e.to_string())?
                .ok_or("node budget exhausted")?;
            let value = moves.iter().map(|m| m.1).max();
            let value = match value {
                Some(v) => v,
                None => solver
                    .value(&pos)
                    .map_err(|e| e.to_string())?
                    .ok_or("node budget exhausted")?,
            };
            let st = solver.stats();
            println!(
                "value {value} (for {} to move: future captures minus the opponent's)",
                pos.to_move()
            );
            if let Some((lo, hi)) = solver.database().bounds(&pos) {
                println!("  under every scoring of endless play: {lo}..={hi}");
            }
            for (mv, v) in &moves {
                println!("  move {}: {v}", mv.relative_pit());
            }
            println!(
                "nodes {} db reads {} (convention-dependent {}) tt entries {} repetitions {} in {:.3} s",
                st.nodes,
                st.db_reads,
                st.db_open_reads,
                solver.table_len(),
                st.repetitions,
                t0.elapsed().as_secs_f64()
            );
        }
        "opening" => {
            let rules = rules_of(&a)?;
            let db = match a.max_seeds {
                Some(n) => Database::open(&rules, n, &a.dir),
                None => Database::open_all(&rules, &a.dir),
            }
            .map_err(|e| e.to_string())?;
            println!(
                "databases: {} layers 0..={} loaded in {:.1} s",
                db.key(),
                db.max_seeds(),
                t0.elapsed().as_secs_f64()
            );
            let mut solver = Solver::new(db);
            solver.set_budget(a.budget);
            let start = Position::start(&rules);
            let mut best = i32::MIN;
            let mut bracket = (i32::MIN, i32::MIN);
            let mut table = 0;
            for (mv, _) in start.children(solver.database().rules()) {
                let t = Instant::now();
                solver.reset_stats();
                let after = start.play(&rules, mv).map_err(|e| e.to_string())?;
                let gain = after.margin(start.to_move());
                let v = gain
                    - solver
                        .value(&after)
                        .map_err(|e| e.to_string())?
                        .ok_or("node budget exhausted")?;
                best = best.max(v);
                let st = solver.stats().clone();
                table = table.max(solver.table_len());
                let mut range = String::new();
                if a.bracket {
                    // Endless play scored as best, then worst, for the player
                    // to move after this move: bounds for the mover here.
                    let mut bounds = [0i32; 2];
                    for (i, mode) in [Endless::RootBest, Endless::RootWorst]
                        .into_iter()
                        .enumerate()
                    {
                        solver.set_endless(mode);
                        bounds[i] = gain
                            - solver
                                .value(&after)
                                .map_err(|e| e.to_string())?
                                .ok_or("node budget exhausted")?;
                    }
                    solver.set_endless(Endless::Convention);
                    bracket = (bracket.0.max(bounds[0]), bracket.1.max(bounds[1]));
                    range = format!(
                        " [whatever endless play is worth: {:+}..={:+}; {} more nodes]",
                        bounds[0],
                        bounds[1],
                        solver.stats().nodes - st.nodes
                    );
                }
                println!(
                    "move {}: value {v:+}{range} (captures {gain}, then {} seeds); nodes {} db reads {} (convention-dependent {}) tt hits {} repetitions {} (untabled {}) probes {}; {:.1} s",
                    mv.relative_pit(),
                    after.board_seeds(),
                    st.nodes,
                    st.db_reads,
                    st.db_open_reads,
                    st.tt_hits,
                    st.repetitions,
                    st.tainted,
                    st.probes,
                    t.elapsed().as_secs_f64()
                );
            }
            if a.bracket {
                println!(
                    "start position: {:+}..={:+} for South whatever endless play is worth{}",
                    bracket.0,
                    bracket.1,
                    if bracket.0 == bracket.1 {
                        " (exact)"
                    } else {
                        ""
                    }
                );
            }
            println!(
                "start position of {}: value {best:+} for South; largest table {} entries; total {:.1} s; peak memory {:.0} MiB",
                rules,
                table,
                t0.elapsed().as_secs_f64(),
                peak_rss_mib().unwrap_or(f64::NAN)
            );
        }
        "counted" => counted(&a, t0)?,
        other => return Err(format!("unknown command {other}\n{USAGE}")),
    }
    Ok(())
}

/// `counted`: build the counted layers, then (with `--budget`) search the start.
fn counted(a: &Args, t0: Instant) -> Result<(), String> {
    use ayo_solve::counted::{counted_report_line, CountedDatabase};
    use ayo_solve::CountedSolver;
    let rules = rules_of(a)?;
    let n = a.max_seeds.ok_or("counted needs --max-seeds")?;
    let (db, reports) =
        CountedDatabase::build(&rules, n, Some(&a.dir), a.quiet).map_err(|e| e.to_string())?;
    for r in &reports {
        println!("{}", counted_report_line(r));
    }
    let boards: u64 = reports.iter().map(|r| r.boards).sum();
    let values: u64 = reports.iter().map(|r| r.values).sum();
    println!(
        "built {} counted layers of {} ({boards} boards, {values} values) in {:.1} s on {} threads; peak memory {:.0} MiB; files in {}",
        reports.len(),
        db.key(),
        t0.elapsed().as_secs_f64(),
        rayon::current_num_threads(),
        peak_rss_mib().unwrap_or(f64::NAN),
        a.dir.display()
    );
    if a.verify {
        let t = Instant::now();
        let (checked, failed) = db.verify();
        println!(
            "verified {} counted layers of {}: {checked} values, {failed} failed ({:.1} s)",
            reports.len(),
            db.key(),
            t.elapsed().as_secs_f64()
        );
        if failed > 0 {
            return Err(format!("{failed} values failed verification"));
        }
    }
    let Some(budget) = a.budget else {
        return Ok(());
    };
    let start = Position::start(&rules);
    let mut solver = CountedSolver::new(db);
    let t = Instant::now();
    solver.set_budget(Some(budget));
    if a.bounds {
        let cpu = cpu_seconds();
        let (lo, hi) = solver.bounds(&start);
        println!(
            "start position of {rules}: value in {lo:+}..={hi:+} for South{} after {} nodes, {} table entries, {:.1} s wall, {:.1} s CPU; peak memory {:.0} MiB",
            if lo == hi { " (exact)" } else { "" },
            solver.nodes(),
            solver.table_len(),
            t.elapsed().as_secs_f64(),
            cpu_seconds() - cpu,
            peak_rss_mib().unwrap_or(f64::NAN)
        );
        return Ok(());
    }
    for (mv, after) in start.children(solver.database().rules()) {
        let before = solver.nodes();
        let gain = after.margin(start.to_move());
        let v = solver.value(&after).map(|rest| gain - rest);
        println!(
            "move {}: {} (captures {gain}, then {} seeds, count {}); nodes {}",
            mv.relative_pit(),
            v.map_or("budget exhausted".to_string(), |v| format!("value {v:+}")),
            after.board_seeds(),
            after.no_capture(),
            solver.nodes() - before
        );
    }
    let value = solver.value(&start);
    println!(
        "start position of {rules}: {} after {} nodes, {} table entries, {:.1} s; peak memory {:.0} MiB",
        match value {
            Some(v) => format!("value {v:+} for South"),
            None => "budget exhausted".to_string(),
        },
        solver.nodes(),
        solver.table_len(),
        t.elapsed().as_secs_f64(),
        peak_rss_mib().unwrap_or(f64::NAN)
    );
    Ok(())
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("ayo-solve: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ayo-solve: {e}");
            ExitCode::FAILURE
        }
    }
}
