//! Bytes → `kafkalint server`'s message reader (`kafkalint::server::transport`): whatever the
//! headers claim, it never panics, never keeps more than the cap, and consumes its input as it
//! reads (so a stream of messages ends); a message it reads, written back as the server writes
//! messages, reads back the same.
#![no_main]

use kafkalint::server::transport::{self, MAX_MESSAGE_BYTES};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = data;
    loop {
        let before = input.len();
        let mut peek = input;
        match transport::read_body(&mut peek) {
            Ok(Some(body)) => assert!(body.len() as u64 <= MAX_MESSAGE_BYTES),
            Ok(None) | Err(_) => {}
        }
        match transport::read_message(&mut input) {
            Ok(Some(message)) => {
                assert!(input.len() < before, "read a message without consuming input");
                let mut written = Vec::new();
                message.write(&mut written).expect("writes to memory");
                let again = transport::read_message(&mut &written[..])
                    .expect("reads what was written")
                    .expect("a message");
                assert_eq!(
                    serde_json::to_value(&message).unwrap(),
                    serde_json::to_value(&again).unwrap()
                );
            }
            Ok(None) | Err(_) => break,
        }
    }
});
