//! An Ansible inventory Ansible cannot parse, and a role template Jinja cannot parse, are
//! `invalid-syntax` at their line however kafkalint is run: in a walk of the folder, with
//! `--with-cluster` on the role's template (the pre-commit mode), and named alone.

use std::process::Command;

const INVENTORY: &str = "fixtures/invalid-syntax/bad-ansible-inventory";
const JINJA: &str = "fixtures/invalid-syntax/bad-ansible-jinja";

fn concise(dir: &str, args: &[&str]) -> (String, i32) {
    let output = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(["check", "--format", "concise"])
        .args(args)
        .current_dir(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir))
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        output.status.code().unwrap_or(-1),
    )
}

#[test]
fn a_broken_inventory_is_reported_in_a_walk_with_its_cluster_and_alone() {
    let expected = "inventories/prod/hosts:1:1: error[invalid-syntax] ansible-inventory cannot parse this inventory";
    for args in [
        vec!["."],
        vec![
            "--with-cluster",
            "roles/kafka/templates/server.properties.j2",
        ],
        vec!["inventories/prod/hosts"],
    ] {
        let (stdout, code) = concise(INVENTORY, &args);
        assert!(stdout.contains(expected), "{args:?}: {stdout}");
        assert_eq!(code, 1, "{args:?}: {stdout}");
    }
    // The inventory of the other environment is Ansible's, and named alone is no Kafka file.
    let (stdout, _) = concise(INVENTORY, &["."]);
    assert!(!stdout.contains("inventories/test/hosts"), "{stdout}");
}

#[test]
fn a_template_jinja_refuses_is_reported_in_a_walk_with_its_cluster_and_alone() {
    let expected = "roles/kafka/templates/server.properties.j2:8:1: error[invalid-syntax] Jinja cannot parse this template";
    for args in [
        vec!["."],
        vec![
            "--with-cluster",
            "roles/kafka/templates/server.properties.j2",
        ],
        vec!["roles/kafka/templates/server.properties.j2"],
    ] {
        let (stdout, code) = concise(JINJA, &args);
        assert!(stdout.contains(expected), "{args:?}: {stdout}");
        assert_eq!(code, 1, "{args:?}: {stdout}");
    }
}

#[test]
fn a_refused_inventory_quotes_no_value_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let hosts = dir.path().join("hosts");
    std::fs::write(&hosts, "[kafka]\nkafka-1 ansible_password hunter2\n").unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(["check"])
        .arg(&hosts)
        .output()
        .unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(all.contains("invalid-syntax"), "{all}");
    assert!(
        !all.contains("hunter2") && !all.contains("ansible_password"),
        "{all}"
    );
}
