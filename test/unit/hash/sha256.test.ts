import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256 } from "../../../src/kernel/hash/sha256.js";

const nodeSha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

describe("sha256", () => {
  it("matches the FIPS 180-2 vectors for the empty string and abc", () => {
    expect(sha256("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("matches the two-block vector and the one-million-a vector", () => {
    expect(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
    expect(sha256("a".repeat(1_000_000))).toBe(
      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
    );
  });

  it("hashes the UTF-8 bytes of non-ASCII text, astral characters included", () => {
    expect(sha256("héllo wörld 🌍")).toBe("701aea0197ece166311a45663e52d5d580e3b5ff116dfda2724ad928e51a834a");
    expect(sha256("日本語のテキスト")).toBe(
      "d4192d3b01dfa9f5b08388f13e5c7492e3cfdc5611bf8c77784dc97523f03efb",
    );
  });

  it("agrees with node:crypto at every length around the padding boundaries", () => {
    for (let length = 0; length <= 130; length++) {
      const text = Array.from({ length }, (_, i) => String.fromCharCode(32 + ((i * 7) % 95))).join("");
      expect(sha256(text), `length ${length}`).toBe(nodeSha256(text));
    }
  });

  it("replaces a lone surrogate with U+FFFD, as node does", () => {
    expect(sha256("\ud800x")).toBe("a87ce46793cc659b79bd187e998f8488635f707d5be0957e1d565981efd2b04b");
  });
});
