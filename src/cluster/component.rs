//! Telling a cluster's component files (Connect, MirrorMaker 2, Streams, Schema Registry) from
//! its node files.

use super::Member;
use crate::components::{self, Component};
use crate::source::SourceFile;

/// `members` split into the components and the others (nodes, and files that do not parse,
/// which are reported as node files are).
pub(crate) fn split(all: &[SourceFile], members: &[Member]) -> (Vec<Component>, Vec<Member>) {
    let mut found = Vec::new();
    let mut others = Vec::new();
    for &(file, part) in members {
        let kind = (all[file].parse_error.is_none())
            .then(|| components::classify(&all[file], part))
            .flatten();
        match kind {
            Some(kind) => found.push(Component { file, part, kind }),
            None => others.push((file, part)),
        }
    }
    (found, others)
}

/// How many of `files` (`.properties` files) are no component files: the count [`split`]
/// gives its second part.
pub(crate) fn node_count(files: &[SourceFile]) -> usize {
    files.iter().filter(|file| !is_component(file)).count()
}

fn is_component(file: &SourceFile) -> bool {
    file.parse_error.is_none() && components::classify(file, None).is_some()
}
