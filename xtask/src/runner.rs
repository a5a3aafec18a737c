//! Runs a tier's steps: each step's output shown and kept in its own log under
//! `target/test-logs/`, its results counted from the test runners' summary lines,
//! its seconds recorded; at the end, the table of seconds and one summary line,
//! `tests: N passed, M failed`.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// One step: a name for the log and the table, and the command that runs it.
pub struct Step {
    /// What the step checks (its log is named after it).
    pub name: String,
    /// The program run, from the checkout.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Variables added to its environment.
    pub env: Vec<(String, String)>,
}

impl Step {
    /// `program args…` as a step named `name`.
    pub fn new(name: impl Into<String>, program: &str, args: &[&str]) -> Self {
        Step {
            name: name.into(),
            program: program.to_owned(),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            env: Vec::new(),
        }
    }

    /// A step of `cargo xtask step` (xtask/src/steps.rs), run by this program.
    pub fn xtask(name: impl Into<String>, function: &str, args: &[&str]) -> Self {
        // This program's path; cargo may have rebuilt it in place since it started
        // (the tests build the workspace), and Linux then names it "… (deleted)":
        // the file at the path is the same program, built again.
        let exe = std::env::current_exe().map_or_else(
            |_| "target/debug/xtask".to_owned(),
            |p| {
                let p = p.to_string_lossy();
                p.strip_suffix(" (deleted)").unwrap_or(&p).to_owned()
            },
        );
        let mut all = vec!["step", function];
        all.extend_from_slice(args);
        Step::new(name, &exe, &all)
    }

    /// The same step with `key=value` in its environment.
    pub fn env(mut self, key: &str, value: &str) -> Self {
        self.env.push((key.to_owned(), value.to_owned()));
        self
    }
}

/// What one step reported: tests passed and failed (a failing exit without a
/// failed test counts as one failure).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Tests (or checks) that passed.
    pub passed: u64,
    /// Tests (or checks) that failed.
    pub failed: u64,
}

/// The counts in a step's output: libtest's `test result: ok. 12 passed; 0 failed; …`,
/// the project's checks' `N passed, M failed` alone on a line, and criterion's test
/// mode `Success` (one each).
pub fn count(output: &str) -> Counts {
    let mut c = Counts::default();
    for line in output.lines() {
        let line = line.trim_end();
        if let Some(rest) = line.strip_prefix("test result: ") {
            let number_before = |word: &str| {
                rest.split("; ")
                    .flat_map(|part| part.split(". "))
                    .find_map(|part| part.strip_suffix(word)?.trim().parse::<u64>().ok())
                    .unwrap_or(0)
            };
            c.passed += number_before(" passed");
            c.failed += number_before(" failed");
        } else if line == "Success" {
            c.passed += 1;
        } else if let Some((p, rest)) = line.split_once(" passed, ") {
            if let (Ok(p), Some(Ok(f))) = (
                p.parse::<u64>(),
                rest.strip_suffix(" failed").map(str::parse::<u64>),
            ) {
                c.passed += p;
                c.failed += f;
            }
        }
    }
    c
}

/// One step's outcome.
struct Outcome {
    number: usize,
    name: String,
    seconds: u64,
    failure: Option<String>,
}

/// Runs steps in order and keeps their outcomes.
pub struct Runner {
    root: PathBuf,
    logs: PathBuf,
    total: Counts,
    outcomes: Vec<Outcome>,
    start: Instant,
}

impl Runner {
    /// A runner whose logs go to `root/target/test-logs` (emptied first).
    pub fn new(root: &Path) -> std::io::Result<Self> {
        let logs = root.join("target/test-logs");
        if logs.exists() {
            std::fs::remove_dir_all(&logs)?;
        }
        std::fs::create_dir_all(&logs)?;
        Ok(Runner {
            root: root.to_owned(),
            logs,
            total: Counts::default(),
            outcomes: Vec::new(),
            start: Instant::now(),
        })
    }

    /// Runs `step` from the checkout, its output (stdout and stderr, in order) shown
    /// and written to its log.
    pub fn run(&mut self, step: Step) {
        let number = self.outcomes.len() + 1;
        let log_path = self.log_path(number, &step.name);
        say(&format!("[{number}] {}", step.name));
        let t0 = Instant::now();
        let result = self.spawn(&step, &log_path, true);
        self.record(number, step.name, &log_path, t0.elapsed().as_secs(), result);
    }

    /// Runs `steps` at the same time, at most `width` at once (steps that do not
    /// share a cargo build directory, so no one waits for another's lock): each
    /// one's output goes to its log and is shown, whole, when it ends.
    pub fn run_parallel(&mut self, steps: Vec<Step>, width: usize) {
        let first = self.outcomes.len() + 1;
        let jobs: Vec<(usize, Step, PathBuf)> = steps
            .into_iter()
            .enumerate()
            .map(|(k, step)| {
                let log = self.log_path(first + k, &step.name);
                (first + k, step, log)
            })
            .collect();
        for (number, step, _) in &jobs {
            say(&format!("[{number}] {} (in parallel)", step.name));
        }
        // Popped from the end: the first step first.
        let queue = std::sync::Mutex::new(jobs.iter().rev().collect::<Vec<_>>());
        let done = std::sync::Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for _ in 0..width.max(1) {
                scope.spawn(|| loop {
                    let Some((number, step, log)) = queue.lock().unwrap().pop() else {
                        break;
                    };
                    let t0 = Instant::now();
                    let result = self.spawn(step, log, false);
                    done.lock()
                        .unwrap()
                        .push((*number, t0.elapsed().as_secs(), result));
                });
            }
        });
        let mut done = done.into_inner().unwrap();
        done.sort_by_key(|(number, ..)| *number);
        for ((number, step, log), (_, seconds, result)) in jobs.into_iter().zip(done) {
            say(&format!("[{number}] {} ({seconds} s):", step.name));
            if let Ok((output, _)) = &result {
                print!("{output}");
            }
            self.record(number, step.name, &log, seconds, result);
        }
    }

    fn log_path(&self, number: usize, name: &str) -> PathBuf {
        let safe: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "._+-".contains(c) {
                    c
                } else {
                    '-'
                }
            })
            .collect();
        self.logs.join(format!("{number:02}-{safe}.log"))
    }

    /// Counts a finished step's output and keeps its outcome.
    fn record(
        &mut self,
        number: usize,
        name: String,
        log_path: &Path,
        seconds: u64,
        result: std::io::Result<(String, Result<(), String>)>,
    ) {
        let (output, status) = match result {
            Ok(r) => r,
            Err(e) => (String::new(), Err(format!("could not run: {e}"))),
        };
        let mut c = count(&output);
        let failure = match status {
            Ok(()) => None,
            Err(why) => {
                c.failed = c.failed.max(1);
                Some(format!("{name} ({why}, log {})", log_path.display()))
            }
        };
        self.total.passed += c.passed;
        self.total.failed += c.failed;
        self.outcomes.push(Outcome {
            number,
            name,
            seconds,
            failure,
        });
    }

    /// Runs the step's command with both streams into one pipe, copied to the log
    /// (and to the terminal when `show`); returns the output and how the command
    /// ended.
    fn spawn(
        &self,
        step: &Step,
        log_path: &Path,
        show: bool,
    ) -> std::io::Result<(String, Result<(), String>)> {
        let (reader, writer) = std::io::pipe()?;
        let mut child = Command::new(&step.program)
            .args(&step.args)
            .envs(step.env.iter().map(|(k, v)| (k, v)))
            .current_dir(&self.root)
            .stdout(writer.try_clone()?)
            .stderr(writer)
            .spawn()?;
        let mut log = File::create(log_path)?;
        let mut output = String::new();
        for line in BufReader::new(reader).split(b'\n') {
            let mut line = line?;
            line.push(b'\n');
            if show {
                std::io::stdout().write_all(&line)?;
            }
            log.write_all(&line)?;
            output.push_str(&String::from_utf8_lossy(&line));
        }
        let status = child.wait()?;
        let result = if status.success() {
            Ok(())
        } else {
            Err(match status.code() {
                Some(code) => format!("exit {code}"),
                None => "killed by a signal".to_owned(),
            })
        };
        Ok((output, result))
    }

    /// Prints every step's seconds (slowest first), the failed steps and the
    /// summary line; returns whether everything passed.
    pub fn finish(self) -> bool {
        println!();
        let minutes = self.start.elapsed().as_secs() / 60;
        say(&format!(
            "{} steps in {minutes} min, slowest first:",
            self.outcomes.len()
        ));
        let mut by_time: Vec<&Outcome> = self.outcomes.iter().collect();
        by_time.sort_by_key(|o| std::cmp::Reverse(o.seconds));
        for o in &by_time {
            println!("{:5} s  [{}] {}", o.seconds, o.number, o.name);
        }
        let failed: Vec<&str> = self
            .outcomes
            .iter()
            .filter_map(|o| o.failure.as_deref())
            .collect();
        if failed.is_empty() {
            say(&format!(
                "all {} steps passed (logs in target/test-logs)",
                self.outcomes.len()
            ));
        } else {
            say("failed steps:");
            for f in &failed {
                println!("  {f}");
            }
        }
        println!(
            "tests: {} passed, {} failed",
            self.total.passed, self.total.failed
        );
        failed.is_empty() && self.total.failed == 0
    }
}

/// A heading line on stderr, as the scripts print theirs.
pub fn say(text: &str) {
    eprintln!("==> {text}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_every_runner_format() {
        let out = "running 3 tests\n\
            test result: ok. 12 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s\n\
            test result: FAILED. 3 passed; 2 failed; 0 ignored\n\
            Success\n\
            158 passed, 1 failed\n\
            not a count: 4 passed, 5 failed here\n\
            tests: 7 passed, 0 failed\n";
        assert_eq!(
            count(out),
            Counts {
                passed: 12 + 3 + 1 + 158,
                failed: 2 + 1
            }
        );
    }

    // Spawns processes: natively only (wasm32-wasip1 has no processes).
    #[cfg(not(target_os = "wasi"))]
    #[test]
    fn a_failing_step_without_tests_counts_as_one_failure() {
        let root = std::env::temp_dir().join(format!("xtask-runner-{}", std::process::id()));
        std::fs::create_dir_all(&root).unwrap();
        let mut r = Runner::new(&root).unwrap();
        r.run(Step::new("ok", "sh", &["-c", "echo '2 passed, 0 failed'"]));
        r.run(Step::new("fails", "sh", &["-c", "echo oops >&2; exit 3"]));
        assert_eq!(
            r.total,
            Counts {
                passed: 2,
                failed: 1
            }
        );
        let log = std::fs::read_to_string(root.join("target/test-logs/02-fails.log")).unwrap();
        assert_eq!(log, "oops\n");
        r.run_parallel(
            vec![
                Step::new(
                    "a",
                    "sh",
                    &["-c", "sleep 1; echo 'test result: ok. 3 passed; 0 failed;'"],
                ),
                Step::new("b", "sh", &["-c", "echo '1 passed, 1 failed'"]),
                Step::new("c", "sh", &["-c", "echo 'Success'"]),
            ],
            2,
        );
        assert_eq!(
            r.total,
            Counts {
                passed: 2 + 3 + 1 + 1,
                failed: 1 + 1
            }
        );
        let log = std::fs::read_to_string(root.join("target/test-logs/03-a.log")).unwrap();
        assert!(log.contains("3 passed"), "{log}");
        assert_eq!(
            r.outcomes.iter().map(|o| o.number).collect::<Vec<_>>(),
            [1, 2, 3, 4, 5]
        );
        assert!(!r.finish());
        std::fs::remove_dir_all(&root).unwrap();
    }
}
