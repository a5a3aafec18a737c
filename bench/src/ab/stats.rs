//! The A/B's statistics: Student's t, one row's paired rounds, the table's
//! multiple-comparison procedure and the verdicts.
//!
//! - A row's rounds are paired (each round measures both sides back to back), and
//!   the unit of the statistics is the round: its log ratio `ln(HEAD/BASE)`.
//!   Their mean, exponentiated, is the geometric-mean ratio; a Student-t interval
//!   on the logs, exponentiated, is its interval. By default the mean is trimmed
//!   (10% of the rounds at each end set aside, the Tukey–McLaughlin interval):
//!   a Wasm engine's run that stays slow throughout (seen with Node 20: a whole
//!   run 30% slower, once or twice in 16 rounds) would otherwise widen every
//!   interval of its runtime past any change worth finding.
//! - The table asks one question per row. Benjamini–Hochberg at false-discovery
//!   rate q picks the rows whose change is called; every row's interval is then
//!   at confidence 1 − max(k, 1)·q/m for k rows called of m (Benjamini and
//!   Yekutieli's false-coverage-rate intervals), so that an interval excludes 1
//!   exactly when its row is called. When no row truly changed (two identical
//!   builds) this is Simes' test: some verdict is false in at most q of tables.
//!   When many rows changed together (a change to the permutation moves every
//!   row) each row is tested at nearly q, where Bonferroni would test at q/m.
//! - A row's verdict: `faster` or `slower` when its interval excludes 1; `same`
//!   when the whole interval lies within the equivalence margin (±x%); otherwise
//!   `inconclusive`, with the change this row could have detected.

/// `ln Γ(x)` for x > 0 (Lanczos, g = 7, nine terms; relative error below 1e-13).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x) Γ(1 − x) = π / sin(πx).
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let t = x + 7.5;
    let series = G[1..]
        .iter()
        .enumerate()
        .fold(G[0], |s, (i, g)| s + g / (x + i as f64 + 1.0));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + series.ln()
}

/// The continued fraction of the regularized incomplete beta function (modified
/// Lentz), valid for x < (a + 1) / (a + b + 2).
fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    d = 1.0 / if d.abs() < TINY { TINY } else { d };
    let mut h = d;
    for m in 1..=300 {
        let m = m as f64;
        let m2 = 2.0 * m;
        for aa in [
            m * (b - m) * x / ((qam + m2) * (a + m2)),
            -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)),
        ] {
            d = 1.0 + aa * d;
            d = 1.0 / if d.abs() < TINY { TINY } else { d };
            c = 1.0 + aa / c;
            c = if c.abs() < TINY { TINY } else { c };
            h *= d * c;
        }
        if (d * c - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// The regularized incomplete beta function I_x(a, b).
fn incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front =
        (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_fraction(b, a, 1.0 - x) / b
    }
}

/// P(T ≤ t) for Student's t with `df` degrees of freedom.
pub fn t_cdf(t: f64, df: f64) -> f64 {
    let tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t));
    if t >= 0.0 {
        1.0 - tail
    } else {
        tail
    }
}

/// The p-quantile of Student's t with `df` degrees of freedom (0.5 < p < 1).
pub fn t_quantile(p: f64, df: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 1.0);
    while t_cdf(hi, df) < p {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if t_cdf(mid, df) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// One row's paired rounds on the log scale: `n` rounds, of which the middle
/// `kept` count (a trimmed mean: the `(n − kept)/2` lowest and highest log ratios
/// set aside), their mean of `ln(HEAD/BASE)` and its standard error.
#[derive(Clone, Debug, PartialEq)]
pub struct Paired {
    /// Paired rounds.
    pub n: usize,
    /// The rounds the mean is taken over (indices into the inputs), in order.
    pub kept: Vec<usize>,
    /// The (trimmed) mean log ratio.
    pub mean: f64,
    /// Its standard error: the Winsorized sample standard deviation (over n − 1)
    /// times √n over the number kept (Tukey and McLaughlin; with nothing trimmed,
    /// the sample standard deviation over √n).
    pub se: f64,
}

impl Paired {
    /// The rounds' medians of each side, paired by position (two at least); the
    /// plain mean of the log ratios.
    pub fn new(base: &[f64], head: &[f64]) -> Result<Self, String> {
        Self::trimmed(base, head, 0.0)
    }

    /// The same with the fraction `trim` (below 0.5) of the log ratios set aside
    /// at each end: g = ⌊trim·n⌋ lowest and g highest. A round that went wrong for
    /// one side alone (a Wasm engine that did not tier up, a neighbour's burst)
    /// then moves neither the mean nor, beyond the Winsorized value, the
    /// standard error.
    pub fn trimmed(base: &[f64], head: &[f64], trim: f64) -> Result<Self, String> {
        let n = base.len();
        if n != head.len() || n < 2 {
            return Err(format!(
                "{} BASE and {} HEAD rounds: paired rounds, two at least, are needed",
                n,
                head.len()
            ));
        }
        if base
            .iter()
            .chain(head)
            .any(|x| !(x.is_finite() && *x > 0.0))
        {
            return Err("a time that is not a positive number".into());
        }
        if !(0.0..0.5).contains(&trim) {
            return Err(format!("trim {trim}: a fraction from 0 to below 0.5"));
        }
        let logs: Vec<f64> = base.iter().zip(head).map(|(b, h)| (h / b).ln()).collect();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&i, &j| logs[i].total_cmp(&logs[j]));
        // At least two kept, for a standard error.
        let g = ((trim * n as f64).floor() as usize).min((n - 2) / 2);
        let h = n - 2 * g;
        let mut kept = order[g..n - g].to_vec();
        kept.sort_unstable();
        let mean = kept.iter().map(|&i| logs[i]).sum::<f64>() / h as f64;
        let (lo, hi) = (logs[order[g]], logs[order[n - g - 1]]);
        let wins: Vec<f64> = logs.iter().map(|l| l.clamp(lo, hi)).collect();
        let wmean = wins.iter().sum::<f64>() / n as f64;
        let wvar = wins.iter().map(|w| (w - wmean).powi(2)).sum::<f64>() / (n - 1) as f64;
        Ok(Paired {
            n,
            se: wvar.sqrt() * (n as f64).sqrt() / h as f64,
            kept,
            mean,
        })
    }

    /// Degrees of freedom of the interval: the rounds kept, less one.
    pub fn df(&self) -> f64 {
        (self.kept.len() - 1) as f64
    }

    /// HEAD/BASE: the geometric mean of the kept rounds' ratios.
    pub fn ratio(&self) -> f64 {
        self.mean.exp()
    }

    /// The two-sided p-value of "no change" (Student's t on the logs); 0 or 1 when
    /// every round gave the same ratio.
    pub fn p_value(&self) -> f64 {
        if self.se == 0.0 {
            return if self.mean == 0.0 { 1.0 } else { 0.0 };
        }
        let t = (self.mean / self.se).abs();
        (2.0 * (1.0 - t_cdf(t, self.df()))).clamp(0.0, 1.0)
    }

    /// The interval of the ratio at confidence `1 − alpha` (two-sided).
    pub fn interval(&self, alpha: f64) -> (f64, f64) {
        let half = t_quantile(1.0 - alpha / 2.0, self.df()) * self.se;
        ((self.mean - half).exp(), (self.mean + half).exp())
    }

    /// The smallest change (as a fraction: 0.04 is 4%) that a row with this noise
    /// would call at level `alpha` with probability `power` (0.5 < power < 1).
    pub fn detectable(&self, alpha: f64, power: f64) -> f64 {
        let z = t_quantile(1.0 - alpha / 2.0, self.df()) + t_quantile(power, self.df());
        (z * self.se).exp() - 1.0
    }
}

/// The geometric mean of HEAD/BASE over paired rounds, with its interval at
/// confidence `1 - alpha` (two-sided): `(ratio, low, high)`.
pub fn ratio_interval(base: &[f64], head: &[f64], alpha: f64) -> Result<(f64, f64, f64), String> {
    let p = Paired::new(base, head)?;
    let (low, high) = p.interval(alpha);
    Ok((p.ratio(), low, high))
}

/// Benjamini–Hochberg at false-discovery rate `q`: how many of the p-values are
/// called (the largest k with the k-th smallest at most k·q/m; those k).
pub fn bh_count(ps: &[f64], q: f64) -> usize {
    let mut sorted = ps.to_vec();
    sorted.sort_by(f64::total_cmp);
    let m = sorted.len() as f64;
    sorted
        .iter()
        .enumerate()
        .filter(|(i, p)| **p <= (*i + 1) as f64 * q / m)
        .map(|(i, _)| i + 1)
        .max()
        .unwrap_or(0)
}

/// The level every row's interval is drawn at when `called` of `m` rows are
/// called at rate `q`: `max(called, 1)·q/m`. A called row's p-value is at most
/// `called·q/m` and every other row's above it, so the intervals agree with the
/// calls; with nothing called it is Bonferroni's `q/m`.
pub fn row_alpha(called: usize, m: usize, q: f64) -> f64 {
    called.max(1) as f64 * q / m.max(1) as f64
}

/// A row's verdict on time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// The interval lies below 1.
    Faster,
    /// The interval lies above 1.
    Slower,
    /// The interval holds 1 and lies within the equivalence margin.
    Same,
    /// The interval holds 1 but reaches past the margin: this run cannot tell.
    Inconclusive,
}

impl Verdict {
    /// The word in ab.json.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Faster => "faster",
            Verdict::Slower => "slower",
            Verdict::Same => "same",
            Verdict::Inconclusive => "inconclusive",
        }
    }
}

/// The verdict of an interval of HEAD/BASE with equivalence margin `margin`
/// (0.03: "same" only when the whole interval lies within 0.97–1.03).
pub fn verdict(low: f64, high: f64, margin: f64) -> Verdict {
    if high < 1.0 {
        Verdict::Faster
    } else if low > 1.0 {
        Verdict::Slower
    } else if low >= 1.0 - margin && high <= 1.0 + margin {
        Verdict::Same
    } else {
        Verdict::Inconclusive
    }
}
