//! `ok`/`FAIL` lines and the `N passed, M failed` that the test runner reads, for
//! the tasks that are lists of checks (`nix-sandbox`, `nix-review`).

/// Counts the checks as they print.
#[derive(Default)]
pub struct Checklist {
    /// Checks that passed.
    pub ok: usize,
    /// Checks that failed.
    pub bad: usize,
}

impl Checklist {
    /// Prints `ok    what`, or `FAIL  what: detail` (detail computed only then).
    pub fn check(&mut self, cond: bool, what: &str, detail: impl FnOnce() -> String) {
        if cond {
            self.ok += 1;
            println!("ok    {what}");
        } else {
            self.bad += 1;
            println!("FAIL  {what}: {}", detail());
        }
    }

    /// Prints the summary line; true when every check passed.
    pub fn finish(&self) -> bool {
        println!("{} passed, {} failed", self.ok, self.bad);
        self.bad == 0
    }
}
