//! A reply from a fake broker → what `kafkalint live` decodes of it: never a panic, never an
//! allocation the frame's bytes do not pay for (libFuzzer's malloc limit catches one), and the
//! walk that checks a reply's shape reads exactly what the decoder then reads (a debug
//! assertion inside `decode_reply`, on with `-a`).
#![no_main]

use libfuzzer_sys::fuzz_target;

/// The replies kafkalint reads, by the API key of the request it sends.
const KEYS: [i16; 8] = [
    18, // ApiVersions
    17, // SaslHandshake
    36, // SaslAuthenticate
    3,  // Metadata
    32, // DescribeConfigs
    16, // ListGroups
    10, // FindCoordinator
    55, // DescribeQuorum
];

fuzz_target!(|data: &[u8]| {
    // Byte 0 picks the request, byte 1 the version; the rest is the frame after its size: the
    // response header (correlation id, and tagged fields when flexible) and the body.
    let [which, version, frame @ ..] = data else {
        return;
    };
    let key = KEYS[usize::from(*which) % KEYS.len()];
    let _ = kafkalint::live::decode_reply(key, i16::from(*version), frame);
});
