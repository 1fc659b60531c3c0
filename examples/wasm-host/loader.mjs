// A small loader for t27 wasm cards, written to the card contract (README, "t27 gen wasm"):
// a card imports nothing; numbers cross as wasm numbers (u64/i64/usize as BigInt); text and
// byte buffers cross as (address, length), the host writing them into the card's memory past
// the size the card was built with, growing the memory as needed.

const PAGE = 65536;
const KINDS = [null, "overflow", "division_by_zero", "shift_too_wide", "index_out_of_bounds",
  "lossy_cast", "recursion_too_deep", "assert", "bad_argument"];

/** An output buffer argument: `n` bytes of room the card may write; read `.bytes` after. */
export class Out {
  constructor(n) {
    this.bytes = new Uint8Array(n);
  }
}

/** A u64 result as the unsigned BigInt it stands for (a card returns an i64's bits). */
export const u64 = (x) => BigInt.asUintN(64, x);

export class CardTrap extends Error {
  constructor(kind, place, cause) {
    super(`card trapped: ${kind} at ${place}`, { cause });
    this.kind = kind;
    this.place = place;
  }
}

/** Loads a card from its bytes; `card.call(name, ...args)` calls a spec function. */
export async function loadCard(bytes) {
  const module = await WebAssembly.compile(bytes);
  if (WebAssembly.Module.imports(module).length !== 0) throw new Error("a card imports nothing");
  const instance = await WebAssembly.instantiate(module, {});
  const x = instance.exports;
  // What the card keeps is below its built size: the host writes from here on.
  const base = x.memory.buffer.byteLength;
  const encoder = new TextEncoder();
  const lastTrap = () => {
    const place = new Uint8Array(x.memory.buffer, x.t27_trap_place(), x.t27_trap_place_len());
    return { kind: KINDS[x.t27_trap_kind()] ?? "unknown", place: new TextDecoder().decode(place) };
  };
  function call(name, ...args) {
    const f = x[name];
    if (typeof f !== "function") throw new Error(`the card exports no function \`${name}\``);
    let at = base;
    const raw = [];
    const outs = [];
    const room = (n) => {
      const need = at + n - x.memory.buffer.byteLength;
      if (need > 0) x.memory.grow(Math.ceil(need / PAGE));
      const ptr = at;
      at += n;
      return ptr;
    };
    for (const a of args) {
      if (typeof a === "string" || a instanceof Uint8Array) {
        const b = typeof a === "string" ? encoder.encode(a) : a;
        const ptr = room(b.length);
        new Uint8Array(x.memory.buffer, ptr, b.length).set(b);
        raw.push(ptr, b.length);
      } else if (a instanceof Out) {
        const ptr = room(a.bytes.length);
        new Uint8Array(x.memory.buffer, ptr, a.bytes.length).fill(0);
        outs.push([a, ptr]);
        raw.push(ptr, a.bytes.length);
      } else if (typeof a === "boolean") {
        raw.push(a ? 1 : 0);
      } else {
        raw.push(a);
      }
    }
    let result;
    try {
      result = f(...raw);
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError) {
        const t = lastTrap();
        throw new CardTrap(t.kind, t.place, e);
      }
      throw e;
    }
    for (const [out, ptr] of outs) out.bytes.set(new Uint8Array(x.memory.buffer, ptr, out.bytes.length));
    return result;
  }
  return { call, exports: x, base, lastTrap, reset: () => x.t27_reset() };
}
