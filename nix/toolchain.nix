# The Rust toolchain of rust-toolchain.toml (version, wasm32-wasip1 target, clippy,
# rustfmt): one source of truth for rustup users and Nix alike.
# crane's "custom toolchain" example: (crane.mkLib pkgs).overrideToolchain (p: …).
{
  pkgs,
  crane,
}: let
  fromFile = p: p.rust-bin.fromRustupToolchainFile ../rust-toolchain.toml;
in {
  rustToolchain = fromFile pkgs;
  craneLib = (crane.mkLib pkgs).overrideToolchain fromFile;
}
