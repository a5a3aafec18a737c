//! Nix expressions evaluated to JSON (`nix-instantiate --eval --strict --json`),
//! as the flake's offline checks and replays read them.

/// `nix-instantiate --eval --strict --json --expr EXPR`, with `env` added to its
/// environment: the value, or Nix's messages when the evaluation failed.
pub fn eval_json(expr: &str, env: &[(&str, &str)]) -> Result<serde_json::Value, String> {
    let out = std::process::Command::new("nix-instantiate")
        .args(["--eval", "--strict", "--json", "--expr", expr])
        .envs(env.iter().copied())
        .output()
        .map_err(|e| format!("nix-instantiate: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("nix-instantiate's JSON: {e}"))
}
