// Runs a wasm32-wasip1 program in JavaScriptCore's `jsc` shell, which has no WASI:
//   jsc -m scripts/jsc-wasi.mjs -- [--dir HOST::GUEST]... [--env KEY=VALUE]...
//       [--exit-code-file FILE] MODULE [ARGS...]
// (scripts/jsc-runner.sh runs it and exits with the program's code). The options
// follow `wasmtime run`: --dir maps a host folder into the program (HOST alone maps
// it under its own name), --env sets a variable (the shell cannot read its own
// environment, so the program sees only these).
//
// What the shell offers decides the design. It reads whole files (readFile) and
// writes whole files into folders that exist (writeFile), but cannot make a folder,
// list one or stat a file. So the program's files live in memory: a file it opens
// for reading is read from the host once; what it writes stays in memory, and at
// exit every file and folder written under a mapped HOST goes into one archive,
// HOST/.wasi-writes-<time>.json ({ dirs: [...], files: [{ path, hex }] }, paths
// relative to HOST), which the caller unpacks (the lab's runtime code does, after
// each run). Folders that exist on the host but were not made by the program cannot be
// listed (fd_readdir lists what the program made).
//
// jsc's quit() always exits 0; an exception exits 3. So the program's exit code
// (proc_exit's, or 0 when _start returns) goes to --exit-code-file when given (a
// trap writes nothing); without it a non-zero code is printed ("exit code N") and
// thrown, so that a failing program still fails the shell.
// Clocks come from preciseTime() (seconds since the epoch as a double: steps of
// about 0.24 µs), random_get from Math.random (enough for a hasher's seed; not for keys).

const host = {
  exists(path) {
    try {
      openFile(path);
      return true;
    } catch {
      return false;
    }
  },
  // The file's bytes; null for a folder (jsc refuses to read those).
  read(path) {
    try {
      return new Uint8Array(readFile(path, "binary"));
    } catch {
      return null;
    }
  },
  write: (path, text) => writeFile(path, text),
  line: (fd, text) => (fd === 2 ? printErr(text) : print(text)),
  now: () => preciseTime(),
};

// WASI preview1 constants.
const E = { SUCCESS: 0, BADF: 8, EXIST: 20, INVAL: 28, ISDIR: 31, NOENT: 44, NOSYS: 52, NOTDIR: 54, NOTEMPTY: 55, NOTCAPABLE: 76 };
const FILETYPE = { CHAR: 2, DIR: 3, FILE: 4 };
const O = { CREAT: 1, DIRECTORY: 2, EXCL: 4, TRUNC: 8 };
const FDFLAG_APPEND = 1;

function utf8(s) {
  const out = [];
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return Uint8Array.from(out);
}

// UTF-8 to a string (an invalid sequence becomes U+FFFD).
function text(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    const n = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 0;
    if (n === 0 || i + n > bytes.length) {
      s += "\ufffd";
      i++;
      continue;
    }
    let c = n === 1 ? b : b & (0xff >> (n + 1));
    for (let k = 1; k < n; k++) c = (c << 6) | (bytes[i + k] & 63);
    s += String.fromCodePoint(c);
    i += n;
  }
  return s;
}

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

class Exit {
  constructor(code) {
    this.code = code;
  }
}

// A program's view of the host: mapped folders, files in memory, stdio by lines.
class Wasi {
  constructor(args, env, dirs) {
    this.args = args.map((a) => utf8(`${a}\0`));
    this.env = env.map((e) => utf8(`${e}\0`));
    this.nodes = new Map(); // host path -> { dir: true, made } | { data, size, dirty }
    this.fds = new Map([0, 1, 2].map((fd) => [fd, { stdio: fd }]));
    this.pending = { 1: [], 2: [] };
    this.roots = dirs.map(([hostDir, guest], i) => {
      const root = hostDir.replace(/\/+$/, "") || "/";
      this.fds.set(3 + i, { dir: root, root, name: utf8(guest) });
      return root;
    });
    this.next = 3 + dirs.length;
    this.t0 = host.now();
    this.memory = null;
  }

  view() {
    return new DataView(this.memory.buffer);
  }
  bytes(ptr, len) {
    return new Uint8Array(this.memory.buffer, ptr, len);
  }
  str(ptr, len) {
    return text(this.bytes(ptr, len));
  }

  // `rel` under the folder of fd `dirfd`, as a host path; null if it leaves the mapped root.
  resolve(dirfd, rel) {
    const d = this.fds.get(dirfd);
    if (!d || d.dir === undefined) return null;
    const parts = d.dir === d.root ? [] : d.dir.slice(d.root.length + 1).split("/");
    for (const seg of rel.split("/")) {
      if (seg === "" || seg === ".") continue;
      if (seg === "..") {
        if (parts.length === 0) return null;
        parts.pop();
      } else parts.push(seg);
    }
    return parts.length ? `${d.root === "/" ? "" : d.root}/${parts.join("/")}` : d.root;
  }

  // The node at a host path (read from the host on first use), or null.
  node(path) {
    let n = this.nodes.get(path);
    if (n === undefined) {
      if (!host.exists(path)) return null;
      const data = host.read(path);
      n = data ? { data, size: data.length, dirty: false } : { dir: true, made: false };
      this.nodes.set(path, n);
    }
    return n;
  }

  parentIsDir(path) {
    const cut = path.lastIndexOf("/");
    const parent = cut <= 0 ? "/" : path.slice(0, cut);
    return this.roots.includes(path) || this.node(parent)?.dir === true;
  }

  filestat(ptr, n, type) {
    const v = this.view();
    for (let o = 0; o < 64; o += 8) v.setBigUint64(ptr + o, 0n, true);
    v.setUint8(ptr + 16, type);
    v.setBigUint64(ptr + 24, 1n, true);
    v.setBigUint64(ptr + 32, BigInt(n?.size ?? 0), true);
    return E.SUCCESS;
  }

  typeOf(entry) {
    if (entry.stdio !== undefined) return FILETYPE.CHAR;
    return entry.dir !== undefined ? FILETYPE.DIR : FILETYPE.FILE;
  }

  // Writes stdout/stderr through the shell's line printers.
  emit(fd, bytes) {
    const pend = this.pending[fd];
    for (const b of bytes) {
      if (b === 10) {
        host.line(fd, text(Uint8Array.from(pend)));
        pend.length = 0;
      } else pend.push(b);
    }
  }

  flush() {
    for (const fd of [1, 2]) if (this.pending[fd].length) this.emit(fd, [10]);
  }

  // Every folder made and file written under each mapped root, one archive per root.
  archive() {
    for (const root of this.roots) {
      const under = (p) => p.startsWith(root === "/" ? "/" : `${root}/`);
      const rel = (p) => p.slice(root === "/" ? 1 : root.length + 1);
      const dirs = [];
      const files = [];
      for (const [p, n] of this.nodes) {
        if (!under(p)) continue;
        if (n.dir && n.made) dirs.push(rel(p));
        if (!n.dir && n.dirty) files.push({ path: rel(p), hex: hex(n.data.subarray(0, n.size)) });
      }
      if (dirs.length || files.length) {
        const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e9)}`;
        host.write(`${root}/.wasi-writes-${stamp}.json`, JSON.stringify({ dirs: dirs.sort(), files }));
      }
    }
  }

  imports() {
    const w = this;
    const calls = {
      args_sizes_get: (argc, size) => w.sizes(w.args, argc, size),
      args_get: (argv, buf) => w.strings(w.args, argv, buf),
      environ_sizes_get: (count, size) => w.sizes(w.env, count, size),
      environ_get: (envp, buf) => w.strings(w.env, envp, buf),
      clock_res_get(_id, ptr) {
        w.view().setBigUint64(ptr, 1000n, true);
        return E.SUCCESS;
      },
      clock_time_get(id, _precision, ptr) {
        const now = host.now();
        const s = id === 0 ? now : now - w.t0;
        w.view().setBigUint64(ptr, BigInt(Math.round(s * 1e9)), true);
        return E.SUCCESS;
      },
      random_get(ptr, len) {
        const b = w.bytes(ptr, len);
        for (let i = 0; i < len; i++) b[i] = Math.floor(Math.random() * 256);
        return E.SUCCESS;
      },
      proc_exit(code) {
        throw new Exit(code);
      },
      sched_yield: () => E.SUCCESS,
      fd_prestat_get(fd, ptr) {
        const d = w.fds.get(fd);
        if (!d?.name) return E.BADF;
        w.view().setUint8(ptr, 0);
        w.view().setUint32(ptr + 4, d.name.length, true);
        return E.SUCCESS;
      },
      fd_prestat_dir_name(fd, ptr, len) {
        const d = w.fds.get(fd);
        if (!d?.name) return E.BADF;
        w.bytes(ptr, len).set(d.name.subarray(0, len));
        return E.SUCCESS;
      },
      fd_fdstat_get(fd, ptr) {
        const f = w.fds.get(fd);
        if (!f) return E.BADF;
        const v = w.view();
        v.setUint8(ptr, w.typeOf(f));
        v.setUint16(ptr + 2, f.append ? FDFLAG_APPEND : 0, true);
        // Every right: with FD_SEEK and FD_TELL, Rust's is_terminal says no.
        v.setBigUint64(ptr + 8, 0xffffffffffffffffn, true);
        v.setBigUint64(ptr + 16, 0xffffffffffffffffn, true);
        return E.SUCCESS;
      },
      fd_fdstat_set_flags: () => E.SUCCESS,
      fd_filestat_get(fd, ptr) {
        const f = w.fds.get(fd);
        if (!f) return E.BADF;
        return w.filestat(ptr, f.node, w.typeOf(f));
      },
      path_filestat_get(dirfd, _flags, p, len, ptr) {
        const path = w.resolve(dirfd, w.str(p, len));
        if (path === null) return E.NOTCAPABLE;
        const n = w.node(path);
        if (!n) return E.NOENT;
        return w.filestat(ptr, n, n.dir ? FILETYPE.DIR : FILETYPE.FILE);
      },
      path_open(dirfd, _dirflags, p, len, oflags, _rights, _inheriting, fdflags, out) {
        const path = w.resolve(dirfd, w.str(p, len));
        if (path === null) return E.NOTCAPABLE;
        let n = w.node(path);
        if (n && oflags & O.CREAT && oflags & O.EXCL) return E.EXIST;
        if (!n) {
          if (!(oflags & O.CREAT)) return E.NOENT;
          if (!w.parentIsDir(path)) return E.NOENT;
          n = { data: new Uint8Array(0), size: 0, dirty: true };
          w.nodes.set(path, n);
        }
        if (oflags & O.DIRECTORY && !n.dir) return E.NOTDIR;
        const root = w.fds.get(dirfd).root;
        let entry;
        if (n.dir) entry = { dir: path, root };
        else {
          if (oflags & O.TRUNC) {
            n.size = 0;
            n.dirty = true;
          }
          entry = { node: n, pos: 0, append: (fdflags & FDFLAG_APPEND) !== 0 };
        }
        const fd = w.next++;
        w.fds.set(fd, entry);
        w.view().setUint32(out, fd, true);
        return E.SUCCESS;
      },
      path_create_directory(dirfd, p, len) {
        const path = w.resolve(dirfd, w.str(p, len));
        if (path === null) return E.NOTCAPABLE;
        if (w.node(path)) return E.EXIST;
        if (!w.parentIsDir(path)) return E.NOENT;
        w.nodes.set(path, { dir: true, made: true });
        return E.SUCCESS;
      },
      path_readlink(dirfd, p, len) {
        const path = w.resolve(dirfd, w.str(p, len));
        if (path === null) return E.NOTCAPABLE;
        return w.node(path) ? E.INVAL : E.NOENT;
      },
      fd_readdir(fd, buf, bufLen, cookie, usedPtr) {
        const d = w.fds.get(fd);
        if (!d || d.dir === undefined) return E.BADF;
        const prefix = d.dir === "/" ? "/" : `${d.dir}/`;
        const names = [...w.nodes.keys()].filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes("/"));
        const out = new Uint8Array(bufLen);
        let used = 0;
        for (let i = Number(cookie); i < names.length && used < bufLen; i++) {
          const name = utf8(names[i].slice(prefix.length));
          const ent = new Uint8Array(24 + name.length);
          const v = new DataView(ent.buffer);
          v.setBigUint64(0, BigInt(i + 1), true);
          v.setBigUint64(8, BigInt(i + 1), true);
          v.setUint32(16, name.length, true);
          v.setUint8(20, w.nodes.get(names[i]).dir ? FILETYPE.DIR : FILETYPE.FILE);
          ent.set(name, 24);
          const take = Math.min(ent.length, bufLen - used);
          out.set(ent.subarray(0, take), used);
          used += take;
        }
        w.bytes(buf, bufLen).set(out.subarray(0, used));
        w.view().setUint32(usedPtr, used, true);
        return E.SUCCESS;
      },
      fd_write(fd, iovs, count, outPtr) {
        const f = w.fds.get(fd);
        if (!f || f.dir !== undefined) return f ? E.ISDIR : E.BADF;
        let total = 0;
        for (let i = 0; i < count; i++) {
          const v = w.view();
          const chunk = w.bytes(v.getUint32(iovs + 8 * i, true), v.getUint32(iovs + 8 * i + 4, true));
          if (f.stdio !== undefined) {
            if (f.stdio !== 0) w.emit(f.stdio, chunk);
          } else w.writeAt(f, chunk);
          total += chunk.length;
        }
        w.view().setUint32(outPtr, total, true);
        return E.SUCCESS;
      },
      fd_read(fd, iovs, count, outPtr) {
        const f = w.fds.get(fd);
        if (!f || f.dir !== undefined) return f ? E.ISDIR : E.BADF;
        let total = 0;
        for (let i = 0; i < count && f.node; i++) {
          const v = w.view();
          const dst = w.bytes(v.getUint32(iovs + 8 * i, true), v.getUint32(iovs + 8 * i + 4, true));
          const src = f.node.data.subarray(f.pos, Math.min(f.node.size, f.pos + dst.length));
          dst.set(src);
          f.pos += src.length;
          total += src.length;
        }
        w.view().setUint32(outPtr, total, true);
        return E.SUCCESS;
      },
      fd_seek(fd, offset, whence, outPtr) {
        const f = w.fds.get(fd);
        if (!f?.node) return f ? E.INVAL : E.BADF;
        const base = [0, f.pos, f.node.size][whence];
        if (base === undefined || base + Number(offset) < 0) return E.INVAL;
        f.pos = base + Number(offset);
        w.view().setBigUint64(outPtr, BigInt(f.pos), true);
        return E.SUCCESS;
      },
      fd_tell(fd, outPtr) {
        const f = w.fds.get(fd);
        if (!f?.node) return f ? E.INVAL : E.BADF;
        w.view().setBigUint64(outPtr, BigInt(f.pos), true);
        return E.SUCCESS;
      },
      fd_sync: () => E.SUCCESS,
      fd_datasync: () => E.SUCCESS,
      fd_close(fd) {
        if (!w.fds.has(fd) || fd < 3) return fd < 3 ? E.SUCCESS : E.BADF;
        w.fds.delete(fd);
        return E.SUCCESS;
      },
    };
    // Anything else the program imports: "not supported", named once on stderr.
    const missing = new Set();
    return new Proxy(calls, {
      get(target, name) {
        if (name in target) return target[name];
        return () => {
          if (!missing.has(name)) host.line(2, `jsc-wasi: ${String(name)} is not supported`);
          missing.add(name);
          return E.NOSYS;
        };
      },
    });
  }

  sizes(list, countPtr, sizePtr) {
    const v = this.view();
    v.setUint32(countPtr, list.length, true);
    v.setUint32(sizePtr, list.reduce((n, s) => n + s.length, 0), true);
    return E.SUCCESS;
  }

  strings(list, ptrs, buf) {
    const v = this.view();
    let at = buf;
    list.forEach((s, i) => {
      v.setUint32(ptrs + 4 * i, at, true);
      this.bytes(at, s.length).set(s);
      at += s.length;
    });
    return E.SUCCESS;
  }

  writeAt(f, chunk) {
    const n = f.node;
    const at = f.append ? n.size : f.pos;
    const end = at + chunk.length;
    if (end > n.data.length) {
      const grown = new Uint8Array(Math.max(end, 2 * n.data.length));
      grown.set(n.data.subarray(0, n.size));
      n.data = grown;
    }
    n.data.set(chunk, at);
    n.size = Math.max(n.size, end);
    n.dirty = true;
    f.pos = end;
  }
}

// The command line: [--dir HOST[::GUEST]]... [--env K=V]... MODULE ARGS...
const argv = [...globalThis.arguments];
const dirs = [];
const env = [];
let codeFile = null;
while (argv[0]?.startsWith("--")) {
  const opt = argv.shift();
  if (opt === "--") break;
  const value = argv.shift();
  if (value === undefined) throw new Error(`jsc-wasi: ${opt} needs a value`);
  if (opt === "--dir") {
    const [h, g] = value.split("::");
    dirs.push([h, g ?? h]);
  } else if (opt === "--env") env.push(value);
  else if (opt === "--exit-code-file") codeFile = value;
  else throw new Error(`jsc-wasi: unknown option ${opt} (--dir HOST[::GUEST], --env KEY=VALUE, --exit-code-file FILE)`);
}
const [module, ...args] = argv;
if (!module) {
  throw new Error("usage: jsc -m scripts/jsc-wasi.mjs -- [--dir HOST[::GUEST]]... [--env KEY=VALUE]... [--exit-code-file FILE] MODULE.wasm [ARGS...]");
}

const bytes = host.read(module);
if (!bytes) throw new Error(`jsc-wasi: cannot read ${module}`);
const wasi = new Wasi([module, ...args], env, dirs);
const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { wasi_snapshot_preview1: wasi.imports() });
wasi.memory = instance.exports.memory;
let code = 0;
try {
  instance.exports._start();
} catch (e) {
  if (!(e instanceof Exit)) throw e;
  code = e.code;
} finally {
  wasi.flush();
  wasi.archive();
}
if (codeFile !== null) host.write(codeFile, `${code}\n`);
else if (code !== 0) {
  printErr(`exit code ${code}`);
  throw new Error(`the program exited with code ${code}`);
}
