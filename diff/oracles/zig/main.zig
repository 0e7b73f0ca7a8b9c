//! mldsa-diff oracle adapter (protocol `mldsa-diff-oracle/1`, see ../PROTOCOL.md) for the
//! ML-DSA of Zig's standard library, `std.crypto.sign.mldsa` (lib/std/crypto/ml_dsa.zig).
//!
//! It reads one JSON request per line on stdin and writes one JSON answer per line on
//! stdout, after a hello line. Offered: keygen; sign with the expanded secret key and the
//! given rnd, pure mode; verify, pure mode. Requests the protocol does not allow (an
//! operation or mode not offered, a missing field, bad hex, an xi or rnd that is not 32
//! bytes) are written to stderr and end the process with exit status 2.
//!
//! Build with -OReleaseSafe (install.sh does): `Signer.finalize` ends its rejection loop
//! with `unreachable` once 575 attempts were rejected. With safety checks on, reaching it
//! is a panic (a message on stderr and an abort, which the harness reports as the process
//! having exited); in ReleaseFast it would be undefined behaviour.

const std = @import("std");
const builtin = @import("builtin");
const Io = std.Io;
const Allocator = std.mem.Allocator;
const mldsa = std.crypto.sign.mldsa;

/// One ML-DSA-44 signature through this adapter, in microseconds. Measured, not computed at
/// start-up: on the development machine (2-core x86_64, ReleaseSafe build) a Python driver
/// sent 2,000 pure `sign` requests (32-byte messages, empty context, 50 random keys, random
/// rnd) one at a time through the pipes and timed them: 480 to 750 us each, JSON, hex and
/// SecretKey.fromBytes (which expands A) included, depending on the load of the machine.
/// ML-DSA-65 took about 750 us and ML-DSA-87 about 920 us.
const sign_us = 500;

/// The longest request line accepted. A 64 KiB message in hex makes a line of about 150 KB.
const max_line_bytes = 16 << 20;

const hello = .{
    .protocol = "mldsa-diff-oracle/1",
    .name = "zig",
    .version = "Zig " ++ builtin.zig_version_string ++ " std.crypto.sign.mldsa",
    .sign_us = sign_us,
    .offers = .{
        .keygen = true,
        .sign = .{ .key = "expanded", .rnd = "given", .modes = .{"pure"} },
        .verify = .{ .modes = .{"pure"} },
    },
    .not_offered = .{
        .@"sign prehash" = "std.crypto.sign.mldsa has no HashML-DSA (FIPS 204 Alg. 4)",
        .@"verify prehash" = "std.crypto.sign.mldsa has no HashML-DSA (FIPS 204 Alg. 5)",
        .@"sign prehashed" = "std.crypto.sign.mldsa has no HashML-DSA (FIPS 204 Alg. 4)",
        .@"verify prehashed" = "std.crypto.sign.mldsa has no HashML-DSA (FIPS 204 Alg. 5)",
        .@"sign mu" = "its Signer computes mu itself; no public API signs from an external mu",
        .@"verify mu" = "its Verifier computes mu itself; no public API verifies from an external mu",
        .@"sign internal" = "no public Sign_internal: the Signer always hashes 0x00 || len(ctx) || ctx first",
        .@"verify internal" = "no public Verify_internal: the Verifier always hashes 0x00 || len(ctx) || ctx first",
        .kernels = "NTT, Power2Round, Decompose, UseHint, SampleInBall, ExpandA, RejNTTPoly, " ++
            "RejBoundedPoly and ExpandMask are private functions of lib/std/crypto/ml_dsa.zig",
    },
};

/// The request fields this adapter reads; the others (`ph`, the kernels' fields) are ignored.
const Request = struct {
    id: i64,
    op: []const u8,
    set: ?[]const u8 = null,
    xi: ?[]const u8 = null,
    sk: ?[]const u8 = null,
    pk: ?[]const u8 = null,
    mode: ?[]const u8 = null,
    msg: ?[]const u8 = null,
    ctx: ?[]const u8 = null,
    rnd: ?[]const u8 = null,
    sig: ?[]const u8 = null,
};

pub fn main(init: std.process.Init) !void {
    const io = init.io;
    const line_buffer = try init.arena.allocator().alloc(u8, max_line_bytes);
    var stdin_reader: Io.File.Reader = .initStreaming(.stdin(), io, line_buffer);
    const in = &stdin_reader.interface;
    var out_buffer: [16 * 1024]u8 = undefined;
    var stdout_writer: Io.File.Writer = .initStreaming(.stdout(), io, &out_buffer);
    const out = &stdout_writer.interface;

    try writeLine(out, hello);

    // Everything a request allocates (decoded hex, encoded answers) goes into this arena,
    // emptied before the next request.
    var arena_state: std.heap.ArenaAllocator = .init(init.gpa);
    defer arena_state.deinit();
    while (in.takeDelimiter('\n') catch |err|
        fail("reading stdin: {s} (a request line may have at most {d} bytes)", .{ @errorName(err), max_line_bytes })) |line|
    {
        _ = arena_state.reset(.retain_capacity);
        if (line.len == 0) continue;
        const arena = arena_state.allocator();
        const req = std.json.parseFromSliceLeaky(Request, arena, line, .{ .ignore_unknown_fields = true }) catch |err|
            fail("not a request ({s}): {s}", .{ @errorName(err), line[0..@min(line.len, 200)] });
        try serve(arena, req, out);
    }
    // End of input: exit.
}

fn serve(a: Allocator, req: Request, out: *Io.Writer) !void {
    const op = std.meta.stringToEnum(enum { keygen, sign, verify }, req.op) orelse
        fail("request {d}: operation \"{s}\" is not offered", .{ req.id, req.op });
    const set = req.set orelse fail("request {d}: no \"set\"", .{req.id});
    inline for (.{ mldsa.MLDSA44, mldsa.MLDSA65, mldsa.MLDSA87 }) |P| {
        if (std.mem.eql(u8, set, P.name)) return switch (op) {
            .keygen => keygen(P, a, req, out),
            .sign => sign(P, a, req, out),
            .verify => verify(P, a, req, out),
        };
    }
    fail("request {d}: unknown set \"{s}\"", .{ req.id, set });
}

/// ML-DSA.KeyGen_internal(xi): the public key and the expanded secret key.
fn keygen(comptime P: type, a: Allocator, req: Request, out: *Io.Writer) !void {
    const xi = try fixedBytes(32, a, req.id, "xi", req.xi);
    const keys = P.newKeyFromSeed(&xi);
    try writeLine(out, .{
        .id = req.id,
        .pk = try hex(a, &keys.pk.toBytes()),
        .sk = try hex(a, &keys.sk.toBytes()),
    });
}

/// ML-DSA.Sign (pure) with the secret key as given, the context and the given rnd. The
/// library's refusals (and a key of the wrong length, which its API cannot even take, as
/// it takes a fixed-size array) are answered as `refused`.
fn sign(comptime P: type, a: Allocator, req: Request, out: *Io.Writer) !void {
    requirePureMode(req);
    const sk_bytes = try hexField(a, req.id, "sk", req.sk);
    const msg = try hexField(a, req.id, "msg", req.msg);
    const ctx = try hexField(a, req.id, "ctx", req.ctx);
    const rnd = try fixedBytes(32, a, req.id, "rnd", req.rnd);

    const sk_len = P.SecretKey.encoded_length;
    if (sk_bytes.len != sk_len) {
        const why = try std.fmt.allocPrint(a, "InvalidLength: SecretKey.fromBytes takes {d} bytes, not {d}", .{ sk_len, sk_bytes.len });
        return writeLine(out, .{ .id = req.id, .refused = why });
    }
    const sk = P.SecretKey.fromBytes(sk_bytes[0..sk_len].*) catch |err|
        return writeLine(out, .{ .id = req.id, .refused = @errorName(err) });
    // The signer keeps a pointer to `sk`, which lives until the end of this function.
    var signer = sk.signerWithContext(rnd, ctx) catch |err|
        return writeLine(out, .{ .id = req.id, .refused = @errorName(err) });
    signer.update(msg);
    const sig = signer.finalize();
    try writeLine(out, .{ .id = req.id, .sig = try hex(a, &sig.toBytes()) });
}

/// ML-DSA.Verify (pure). Whatever it cannot take is answered `accept: false` with a reason.
fn verify(comptime P: type, a: Allocator, req: Request, out: *Io.Writer) !void {
    requirePureMode(req);
    const pk_bytes = try hexField(a, req.id, "pk", req.pk);
    const msg = try hexField(a, req.id, "msg", req.msg);
    const ctx = try hexField(a, req.id, "ctx", req.ctx);
    const sig_bytes = try hexField(a, req.id, "sig", req.sig);

    const pk_len = P.PublicKey.encoded_length;
    const sig_len = P.Signature.encoded_length;
    if (pk_bytes.len != pk_len) {
        const why = try std.fmt.allocPrint(a, "public key of {d} bytes, not {d}", .{ pk_bytes.len, pk_len });
        return writeLine(out, .{ .id = req.id, .accept = false, .reason = why });
    }
    if (sig_bytes.len != sig_len) {
        const why = try std.fmt.allocPrint(a, "signature of {d} bytes, not {d}", .{ sig_bytes.len, sig_len });
        return writeLine(out, .{ .id = req.id, .accept = false, .reason = why });
    }
    const pk = P.PublicKey.fromBytes(pk_bytes[0..pk_len].*) catch |err|
        return reject(a, out, req.id, "PublicKey.fromBytes", err);
    const sig = P.Signature.fromBytes(sig_bytes[0..sig_len].*) catch |err|
        return reject(a, out, req.id, "Signature.fromBytes", err);
    sig.verifyWithContext(msg, pk, ctx) catch |err|
        return reject(a, out, req.id, "verifyWithContext", err);
    try writeLine(out, .{ .id = req.id, .accept = true });
}

fn reject(a: Allocator, out: *Io.Writer, id: i64, comptime where: []const u8, err: anyerror) !void {
    const why = try std.fmt.allocPrint(a, where ++ ": {s}", .{@errorName(err)});
    try writeLine(out, .{ .id = id, .accept = false, .reason = why });
}

/// Writes one JSON value as one line, and flushes it.
fn writeLine(out: *Io.Writer, value: anytype) !void {
    try std.json.Stringify.value(value, .{}, out);
    try out.writeByte('\n');
    try out.flush();
}

fn requirePureMode(req: Request) void {
    const mode = req.mode orelse fail("request {d}: no \"mode\"", .{req.id});
    if (!std.mem.eql(u8, mode, "pure"))
        fail("request {d}: mode \"{s}\" is not offered (only \"pure\")", .{ req.id, mode });
}

/// The bytes of a hex field the protocol requires.
fn hexField(a: Allocator, id: i64, comptime name: []const u8, field: ?[]const u8) ![]u8 {
    const text = field orelse fail("request {d}: no \"" ++ name ++ "\"", .{id});
    const buffer = try a.alloc(u8, text.len / 2);
    return std.fmt.hexToBytes(buffer, text) catch
        fail("request {d}: \"" ++ name ++ "\" is not a hex byte string", .{id});
}

/// A hex field whose length the protocol fixes.
fn fixedBytes(comptime n: usize, a: Allocator, id: i64, comptime name: []const u8, field: ?[]const u8) ![n]u8 {
    const b = try hexField(a, id, name, field);
    if (b.len != n) fail("request {d}: \"" ++ name ++ "\" has {d} bytes, not {d}", .{ id, b.len, n });
    return b[0..n].*;
}

fn hex(a: Allocator, bytes: []const u8) ![]const u8 {
    const digits = "0123456789abcdef";
    const text = try a.alloc(u8, 2 * bytes.len);
    for (bytes, 0..) |b, i| {
        text[2 * i] = digits[b >> 4];
        text[2 * i + 1] = digits[b & 15];
    }
    return text;
}

/// A request the protocol does not allow: say so on stderr and exit non-zero.
fn fail(comptime fmt: []const u8, args: anytype) noreturn {
    std.debug.print("zig oracle: " ++ fmt ++ "\n", args);
    std.process.exit(2);
}
