//! No branch on a carry in the library's native field arithmetic: the x86-64
//! code of its backends, as the compiler emitted it, read back from a binary's
//! disassembly (`objdump -d`).
//!
//! The source has no branch on limb values (masks, not `if`), but LLVM may turn
//! a masked addition back into a branch: a conditional jump whose condition is a
//! borrow or a carry (`sbb … setb … or … jne`). It did in the `u64` backend's
//! rows and conversions, where a mask built from a borrow chose whether p was
//! added. That is a timing leak of the values, so the step fails on it.
//!
//! What counts: in a function of the library's backends (mangled names holding
//! `8poseidon7backend`), a conditional jump *forward* (loops jump back) whose
//! flags come from a carry or borrow instruction (`adc`, `sbb`, `adcx`, `adox`:
//! the last instruction before it that writes flags), or with a flag read into a
//! register (`setcc`) among the six instructions before it. Loop counters and
//! length checks compare with `cmp`/`test` of their own registers, and are not
//! counted. A heuristic on the emitted code, not a proof: it catches the pattern
//! the compiler produced, and a test keeps a sample of it.

/// One function's suspicious jumps: its (mangled) name and their addresses.
#[derive(Debug, PartialEq, Eq)]
pub struct Finding {
    /// The function's mangled name.
    pub function: String,
    /// The jumps' addresses (hex, as objdump prints them).
    pub addresses: Vec<String>,
}

/// What a disassembly holds: the functions scanned and the findings.
#[derive(Debug, Default)]
pub struct Scan {
    /// Names of the library's backend functions seen.
    pub functions: Vec<String>,
    /// How many `mulx` those functions hold (the BMI2/ADX products are in).
    pub mulx: usize,
    /// The functions with a conditional jump on a carry.
    pub findings: Vec<Finding>,
}

/// The part of a mangled name that marks the library's backends.
pub const BACKENDS: &str = "8poseidon7backend";
/// Instructions whose flags come from the values' carries.
const CARRY_OPS: [&str; 4] = ["adc", "sbb", "adcx", "adox"];
/// How far back a flag read into a register (`setcc`) makes a jump suspicious.
const WINDOW: usize = 6;

/// Scans `objdump -d --no-show-raw-insn -M intel` output (Intel syntax: AT&T's
/// suffixed mnemonics, `adcq` and the like, would not match).
pub fn scan(disassembly: &str) -> Scan {
    let mut out = Scan::default();
    // The backend function being read, its jumps found so far.
    let mut current: Option<Finding> = None;
    let mut recent: Vec<String> = Vec::new();
    for line in disassembly.lines() {
        if let Some(name) = function_header(line) {
            out.findings
                .extend(current.take().filter(|f| !f.addresses.is_empty()));
            recent.clear();
            if name.contains(BACKENDS) {
                out.functions.push(name.to_owned());
                current = Some(Finding {
                    function: name.to_owned(),
                    addresses: Vec::new(),
                });
            }
            continue;
        }
        let Some((addr, op, operand)) = instruction(line) else {
            continue;
        };
        let Some(found) = current.as_mut() else {
            continue;
        };
        if op == "mulx" {
            out.mulx += 1;
        }
        let conditional = op.starts_with('j') && op != "jmp";
        if conditional {
            let forward = match (u64::from_str_radix(addr, 16), target(operand)) {
                (Ok(at), Some(to)) => to > at,
                _ => false,
            };
            let flag_read = recent
                .iter()
                .rev()
                .take(WINDOW)
                .any(|p| p.starts_with("set"));
            let last_writer = recent.iter().rev().find(|p| writes_flags(p));
            let after_carry =
                flag_read || last_writer.is_some_and(|p| CARRY_OPS.contains(&p.as_str()));
            if forward && after_carry {
                found.addresses.push(addr.to_owned());
            }
        }
        recent.push(op.to_owned());
    }
    out.findings
        .extend(current.filter(|f| !f.addresses.is_empty()));
    out
}

/// Whether an instruction writes the arithmetic flags (most ALU instructions);
/// the moves, `lea`, `setcc`, `cmovcc`, `mulx` and BMI2's shifts do not.
fn writes_flags(op: &str) -> bool {
    const KEEP: [&str; 12] = [
        "lea", "mulx", "shlx", "shrx", "sarx", "rorx", "not", "push", "pop", "nop", "xchg", "bswap",
    ];
    !(op.starts_with("mov")
        || op.starts_with("set")
        || op.starts_with("cmov")
        || op.starts_with('j')
        || op.starts_with('v')
        || KEEP.contains(&op))
}

/// `0000000000123abc <name>:` → `name`.
fn function_header(line: &str) -> Option<&str> {
    let (addr, rest) = line.split_once(' ')?;
    if addr.is_empty() || !addr.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    rest.strip_prefix('<')?.strip_suffix(">:")
}

/// `  123abc:\tjne    123ac8 <name+0x10>` → (`123abc`, `jne`, `123ac8 <…>`).
fn instruction(line: &str) -> Option<(&str, &str, &str)> {
    let (addr, rest) = line.trim_start().split_once(":\t")?;
    if addr.is_empty() || !addr.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let rest = rest.trim();
    let (op, operand) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    Some((addr, op, operand.trim()))
}

/// A direct jump's target address (`123ac8 <…>`); `None` for an indirect one.
fn target(operand: &str) -> Option<u64> {
    let first = operand.split_whitespace().next()?;
    u64::from_str_radix(first, 16).ok()
}

/// The step's verdict on a scan: `Err` with the findings, or without the
/// functions it must have seen (`must_see`: mangled-name parts, and `mulx` when
/// `products` is set), so that it cannot pass on a binary without them.
pub fn verdict(scan: &Scan, must_see: &[&str], products: bool) -> Result<String, String> {
    for part in must_see {
        if !scan.functions.iter().any(|f| f.contains(part)) {
            return Err(format!(
                "no function matching {part} among the {} backend functions: inlined or renamed?",
                scan.functions.len()
            ));
        }
    }
    if products && scan.mulx == 0 {
        return Err(
            "no mulx in the backend functions: the BMI2/ADX products are not in this binary".into(),
        );
    }
    if !scan.findings.is_empty() {
        let list: Vec<String> = scan
            .findings
            .iter()
            .map(|f| format!("{} at {}", f.function, f.addresses.join(", ")))
            .collect();
        return Err(format!(
            "a conditional jump on a carry in {} function(s): {}",
            scan.findings.len(),
            list.join("; ")
        ));
    }
    Ok(format!(
        "{} backend functions, {} mulx, no conditional jump on a carry",
        scan.functions.len(),
        scan.mulx
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pattern LLVM emitted for `arith::add_masked` (a borrow's mask choosing
    /// whether p is added), abridged from the `u64` backend's code.
    const BRANCHY: &str = "\
0000000000b8b00 <_ZN8poseidon7backend3u646rounds9kimchi_fp7permute17h0E>:
  1b8b5b:\tsbb    r10,rcx
  1b8b5e:\tsbb    r8,0x0
  1b8b62:\tsetb   al
  1b8b65:\tmovabs r14,0x4000000000000000
  1b8b9f:\ttest   dl,cl
  1b8ba1:\tjne    1b8bab <_ZN8poseidon7backend3u646rounds9kimchi_fp7permute17h0E+0x2dcb>
  1b8ba3:\txor    r9d,r9d
  1b8bab:\tadd    r9,r11
  1b8bb0:\tmulx   r8,r9,QWORD PTR [rsi]
";

    /// A loop: its back edge after carries, its exit on a counter.
    const LOOPY: &str = "\
0000000001af9a0 <_ZN8poseidon7backend3u644ifma14permute_chunks17h0E>:
  1af9a0:\tadd    rbx,0x140
  1afba3:\tadc    r14,0x0
  1afbb1:\tadc    rdi,0x0
  1afbc4:\tcmp    r11,0x78
  1afbc8:\tjne    1af9a0 <_ZN8poseidon7backend3u644ifma14permute_chunks17h0E>
  1afbd0:\tcmp    rax,rbx
  1afbd4:\tje     1afc00 <_ZN8poseidon7backend3u644ifma14permute_chunks17h0E+0x260>
  1afbd6:\tmulx   r8,r9,QWORD PTR [rsi]
0000000001afc80 <_ZN5other8function17h0E>:
  1afc80:\tsbb    r10,rcx
  1afc84:\tjb     1afc90 <_ZN5other8function17h0E+0x10>
";

    #[test]
    fn a_branch_on_a_borrow_is_found() {
        let s = scan(BRANCHY);
        assert_eq!(s.functions.len(), 1);
        assert_eq!(s.mulx, 1);
        assert_eq!(
            s.findings,
            vec![Finding {
                function: "_ZN8poseidon7backend3u646rounds9kimchi_fp7permute17h0E".into(),
                addresses: vec!["1b8ba1".into()],
            }]
        );
        let err = verdict(&s, &["9kimchi_fp7permute"], true).unwrap_err();
        assert!(err.contains("1b8ba1"), "{err}");
    }

    #[test]
    fn loops_counters_and_other_crates_pass() {
        let s = scan(LOOPY);
        // The other crate's branch is not the library's.
        assert_eq!(s.functions.len(), 1);
        assert!(s.findings.is_empty(), "{:?}", s.findings);
        assert!(verdict(&s, &["4ifma14permute_chunks"], true).is_ok());
    }

    #[test]
    fn a_binary_without_the_functions_fails() {
        let s = scan(LOOPY);
        let err = verdict(&s, &["9kimchi_fp7permute"], false).unwrap_err();
        assert!(err.contains("9kimchi_fp7permute"), "{err}");
        let mut no_products = scan(LOOPY);
        no_products.mulx = 0;
        assert!(verdict(&no_products, &[], true).is_err());
        assert!(verdict(&no_products, &[], false).is_ok());
    }
}
