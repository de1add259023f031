//! Telling a cluster's component files (Connect, MirrorMaker 2, Streams, Schema Registry) from
//! its node files.

use crate::components::{self, Component};
use crate::source::SourceFile;

/// `files` split into the component files and the others (node files, and files that do not
/// parse, which are reported as node files are).
pub(crate) fn split(all: &[SourceFile], files: &[usize]) -> (Vec<Component>, Vec<usize>) {
    let mut found = Vec::new();
    let mut others = Vec::new();
    for &file in files {
        let kind = (all[file].parse_error.is_none())
            .then(|| components::classify(&all[file]))
            .flatten();
        match kind {
            Some(kind) => found.push(Component { file, kind }),
            None => others.push(file),
        }
    }
    (found, others)
}

/// How many of `files` are no component files: the count [`split`] gives its second part.
pub(crate) fn node_count(files: &[SourceFile]) -> usize {
    files.iter().filter(|file| !is_component(file)).count()
}

fn is_component(file: &SourceFile) -> bool {
    file.parse_error.is_none() && components::classify(file).is_some()
}
