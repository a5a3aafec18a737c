# The flake's nix/*.nix files called with stand-ins for nixpkgs, crane and the
# toolchain, for `make test` (cargo xtask nix-sandbox): no nixpkgs is needed. The
# stand-ins record what they are given, so the result holds the crane arguments,
# and the shell steps (text, environment, PATH inputs) that the check then runs the
# way the Nix sandbox and the apps would. `standins` maps a package name to the
# directory that stands for its store path.
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
    # The whole wrapper, so that its text, environment and inputs reach the result.
    getExe = d: d;
  };
  target = a: a.CARGO_BUILD_TARGET or "host";
  craneLib = {
    fileset.commonCargoSources = root: root;
    buildDepsOnly = a: {outPath = "/deps/${target a}/${a.CARGO_PROFILE or "release"}";};
    buildPackage = a: let
      wasm =
        if a ? CARGO_BUILD_TARGET
        then "-wasm"
        else "";
    in
      a // {outPath = standins."${a.pname}${wasm}";};
    cargoFmt = a: a;
    cargoClippy = a: a;
    cargoTest = a: a;
    cargoDocTest = a: a;
    devShell = a: a;
  };
  runCommand = name: env: text: env // {inherit name text;};
  writeShellApplication = a: a;
  # As pkgs.callPackage: each file gets the arguments it names.
  scope =
    tools
    // {
      inherit lib craneLib runCommand writeShellApplication;
      rustToolchain = pkg "rust-toolchain" // {version = "1.95.0";};
      countPython = pkg "python-counts";
      pins = {
        flake = "standin-flake";
        nixpkgs = "standin-nixpkgs";
      };
    };
  call = file: extra: let
    f = import file;
  in
    f (builtins.intersectAttrs (builtins.functionArgs f) (scope // extra));
  packages = call ../packages.nix {};
  checks = call ../checks.nix {inherit packages;};
in {
  inherit checks;
  # The builds, with their arguments (not collapsed to their store paths).
  packages = builtins.mapAttrs (_: d: removeAttrs d ["outPath"]) packages.outputs;
  inherit (packages) benchEnv benchInputs;
  apps = builtins.mapAttrs (_: a: a.program) (call ../apps.nix {inherit packages;});
  formatter = call ../fmt.nix {};
  shell = call ../shell.nix {inherit checks;};
}
