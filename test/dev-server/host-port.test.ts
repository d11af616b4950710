import { describe, expect, it } from "vitest";
import { hostPort } from "../../src/dev-server/host-port.js";

describe("hostPort", () => {
  it("joins an IPv4 address or a name with the port", () => {
    expect(hostPort("127.0.0.1", 7233)).toBe("127.0.0.1:7233");
    expect(hostPort("localhost", 80)).toBe("localhost:80");
  });

  it("brackets an IPv6 literal", () => {
    expect(hostPort("::1", 7233)).toBe("[::1]:7233");
  });
});
