# Stand-ins for nixpkgs, crane and the toolchain, for the offline checks of
# `make test` (./eval.nix, ./flake-eval.nix): no nixpkgs is needed. The stand-ins
# record what they are given, so an evaluation holds the crane arguments and the
# shell steps (text, environment, PATH inputs). Each derivation gets the name the
# real function would give it (crane appends -deps, -test, -clippy…). `standins`
# maps a package name to the directory that stands for its store path.
{standins}: let
  pkg = name: {
    inherit name;
    outPath = standins.${name} or "/nonexistent/${name}";
  };
  names = [
    "bash"
    "coreutils"
    "gnugrep"
    "gnused"
    "gawk"
    "jq"
    "wasmtime"
    "nodejs_22"
    "nodejs_24"
    "alejandra"
    "deadnix"
    "valgrind"
    "autoPatchelfHook"
  ];
  tools = builtins.listToAttrs (map (n: {
      name = n;
      value = pkg n;
    })
    names);
  lib = {
    fileset = {
      # scripts/ and the vector files have stand-ins; the cargo source's (read by
      # the counts for its hash) is the checkout.
      toSource = {root, ...}:
        {
          scripts = pkg "scripts";
          data = pkg "vectors";
        }
        .${baseNameOf root}
        or (pkg "src");
      unions = l: l;
      fileFilter = _: dir: dir;
    };
    getVersion = d: d.version;
    optionalAttrs = cond: attrs:
      if cond
      then attrs
      else {};
    optionals = cond: list:
      if cond
      then list
      else [];
    genAttrs = names: f:
      builtins.listToAttrs (map (name: {
          inherit name;
          value = f name;
        })
        names);
    # The whole wrapper, so that its text, environment and inputs reach the result.
    getExe = d: d;
  };
  target = a: a.CARGO_BUILD_TARGET or "host";
  # crane's mkCargoDerivation: pname plus the function's suffix.
  named = suffix: a: a // {name = "${a.pname}${suffix}-${a.version}";};
  craneLib = {
    fileset.commonCargoSources = root: root;
    buildDepsOnly = a: {
      inherit (named "-deps" a) name;
      target = target a;
      profile = a.CARGO_PROFILE or "release";
      outPath = "/standin-store/${a.pname}-deps";
    };
    buildPackage = a: named "" a // {outPath = standins.${a.pname} or "/nonexistent/${a.pname}";};
    cargoFmt = named "-fmt";
    cargoClippy = named "-clippy";
    cargoTest = named "-test";
    cargoDocTest = named "-doctest";
    devShell = a: a;
  };
  runCommand = name: env: text: env // {inherit name text;};
  writeShellApplication = a: a;
  python3 = {
    pkgs.buildPythonPackage = named "";
    withPackages = f: pkg "python-counts" // {packages = f {};};
  };
  rustToolchain = pkg "rust-toolchain" // {version = "1.95.0";};
  # As pkgs.callPackage: each file gets the arguments it names.
  scope =
    tools
    // {
      inherit lib craneLib runCommand writeShellApplication python3 rustToolchain;
      fetchurl = a: a // {name = baseNameOf a.url;};
      stdenv.cc.cc.lib = pkg "gcc-lib";
      rust-bin.fromRustupToolchainFile = _: rustToolchain;
      countPython = pkg "python-counts";
      pins = {
        flake = "standin-flake";
        nixpkgs = "standin-nixpkgs";
      };
    };
  call = file: extra: let
    f = import file;
  in
    f (builtins.intersectAttrs (builtins.functionArgs f) (pkgs // extra));
  # `import nixpkgs {…}` for the flake: callPackage, and pkgs itself (toolchain.nix).
  pkgs =
    scope
    // {
      inherit pkgs;
      callPackage = call;
    };
in {
  inherit lib craneLib call pkgs;
}
