# Stand-ins for nixpkgs, crane and the toolchain, for the offline checks of
# `make test` (./eval.nix, ./flake-eval.nix): no nixpkgs is needed. The stand-ins
# record what they are given, so an evaluation holds the crane arguments and the
# shell steps (text, environment, PATH inputs). Each derivation gets the name the
# real function would give it (crane appends -deps, -test, -clippy…). `standins`
# maps a package name to the directory that stands for its store path.
#
# With `tracked` (the checkout's files, relative paths, as a git flake's source
# holds them: `git ls-files`), lib.fileset computes its file sets for real, by
# the rules of nixpkgs' lib.fileset (a path is every file under it, fileFilter's
# predicate sees `name`, `type` and `hasExt`), and crane's commonCargoSources is
# the pinned crane's (2c71e19, lib/fileset/commonCargoSources.nix: Cargo.toml and
# Cargo.lock, `*.rs`, `*.toml`): `cargo xtask nix-replay` builds the tree each
# derivation sees from them. Without it (`null`) the sets are not computed.
{
  standins,
  tracked ? null,
}: let
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
    "binaryen"
  ];
  tools = builtins.listToAttrs (map (n: {
      name = n;
      value = pkg n;
    })
    names);
  # A path of the checkout, relative to its root ("" for the root itself).
  top = toString ../..;
  relative = p: let
    s = toString p;
    n = builtins.stringLength top;
  in
    if s == top
    then ""
    else if builtins.substring 0 (n + 1) s == "${top}/"
    then builtins.substring (n + 1) (-1) s
    else throw "lib.fileset: ${s} is outside the checkout";
  # The tracked files under `rel` (the file itself, or those below the directory).
  under = rel:
    builtins.filter (f:
      rel
      == ""
      || f == rel
      || builtins.substring 0 (builtins.stringLength rel + 1) f == "${rel}/")
    tracked;
  # A file set: its files, relative to the checkout's root. A path stands for every
  # tracked file under it; as in nixpkgs, a path that holds none is an error.
  asSet = x:
    if builtins.isPath x
    then let
      files = under (relative x);
    in
      if files == []
      then throw "lib.fileset: ${toString x} does not exist (or holds no tracked file)"
      else files
    else x.files;
  fileset = {
    unions = l: {files = builtins.sort builtins.lessThan (uniq (builtins.concatMap asSet l));};
    fileFilter = pred: dir: {
      files = builtins.filter (f: let
        name = baseNameOf f;
      in
        pred {
          inherit name;
          type = "regular";
          hasExt = ext: let
            e = ".${ext}";
            n = builtins.stringLength name;
            k = builtins.stringLength e;
          in
            n >= k && builtins.substring (n - k) k name == e;
        }) (under (relative dir));
    };
  };
  uniq = l:
    builtins.attrNames (builtins.listToAttrs (map (f: {
        name = f;
        value = null;
      })
      l));
  lib = {
    fileset =
      {
        # scripts/ and the vector files have stand-ins; the cargo source's (read by
        # the counts for its hash) is the checkout. With `tracked`, each also holds
        # its root and files (relative to the root).
        toSource = {
          root,
          fileset,
        }:
          {
            scripts = pkg "scripts";
            data = pkg "vectors";
          }
          .${baseNameOf root}
          or (pkg "src")
          // (
            if tracked == null
            then {}
            else let
              r = relative root;
              cut = builtins.stringLength r + 1;
            in {
              root = r;
              files = map (f:
                if r == ""
                then f
                else if builtins.substring 0 cut f == "${r}/"
                then builtins.substring cut (-1) f
                else throw "lib.fileset.toSource: ${f} is not under its root ${r}")
              (asSet fileset);
            }
          );
      }
      // (
        if tracked == null
        then {
          unions = l: l;
          fileFilter = _: dir: dir;
        }
        else fileset
      );
    importTOML = p: builtins.fromTOML (builtins.readFile p);
    concatMapStrings = f: l: builtins.concatStringsSep "" (map f l);
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
    # crane 2c71e19: fileset.commonCargoSources = unions [cargoTomlAndLock rust toml].
    fileset.commonCargoSources = root:
      if tracked == null
      then root
      else
        fileset.unions [
          (fileset.fileFilter (f: f.name == "Cargo.toml" || f.name == "Cargo.lock") root)
          (fileset.fileFilter (f: f.hasExt "rs") root)
          (fileset.fileFilter (f: f.hasExt "toml") root)
        ];
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
  runCommand = name: env: text:
    env
    // {
      inherit name text;
      outPath = standins.${name} or "/nonexistent/${name}";
    };
  writeShellApplication = a: a;
  # The script's text kept beside its stand-in path (a file the sandbox check writes).
  writeShellScript = name: text: {
    inherit name text;
    outPath = standins.${name} or "/nonexistent/${name}";
  };
  python3 = {
    pkgs.buildPythonPackage = named "";
    withPackages = f: pkg "python-counts" // {packages = f {};};
  };
  rustToolchain = pkg "rust-toolchain" // {version = "1.95.0";};
  # As pkgs.callPackage: each file gets the arguments it names.
  scope =
    tools
    // {
      inherit lib craneLib runCommand writeShellApplication writeShellScript python3 rustToolchain;
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
