//! kafkalint's reading of what Ansible refuses, against Ansible itself: generated INI and YAML
//! inventories given to the real `ansible-inventory` (ansible-core), and generated role
//! templates given to the real Jinja that Ansible renders with. Each must be refused by
//! kafkalint exactly when the real tool refuses it (`invalid-syntax`), accepted otherwise.

use kafkalint::sources::ansible::{inventory_syntax, jinja_syntax};
use std::process::Command;

#[path = "support/rng.rs"]
mod rng;
mod support;

const SUITE: &str = "tests/ansible_differential.rs";

/// Lines an INI inventory is made of: sections, host lines, variables, children, good and bad.
const INI_LINES: &[&str] = &[
    "[kafka]",
    "[zookeeper]",
    "[cluster:children]",
    "[kafka:vars]",
    "[other:vars]",
    "[kafka",
    "[my group]",
    "[kafka:hostz]",
    "[kafka] # brokers",
    "kafka-1",
    "kafka-2 broker_id=2",
    "kafka-3:9092 broker_id=3 rack=\"a b\"",
    "kafka-[1:3].example.com",
    "kafka-[01:03]",
    "kafka-[a:c]",
    "kafka-[01:3]",
    "kafka-[1:]",
    "kafka-[c:a]",
    "kafka-1 broker_id",
    "kafka-1 rack='open",
    "kafka-1:",
    "---",
    "kafka",
    "zookeeper",
    "nowhere",
    "kafka zookeeper",
    "heap=1g",
    "heap",
    "# a comment",
    "; a comment",
    "",
    "all:",
    "  hosts:",
];

/// Lines a YAML inventory is made of.
const YAML_LINES: &[&str] = &[
    "all:",
    "kafka:",
    "  hosts:",
    "  children:",
    "  vars:",
    "    kafka-1:",
    "    kafka-[1:3]:",
    "    kafka-[01:3]:",
    "    - kafka-1",
    "    kafka:",
    "      hosts:",
    "        kafka-1:",
    "        - kafka-2",
    "    heap: 1g",
    "  hosts: kafka-1",
    "- kafka-1",
    "{",
    "  bad: [",
    "# a comment",
    "",
];

/// Lines a role's template is made of.
const JINJA_LINES: &[&str] = &[
    "broker.id={{ id }}",
    "log.dirs=/data",
    "{% if x %}",
    "{% elif y %}",
    "{% else %}",
    "{% endif %}",
    "{%- if x -%}",
    "{% for k, v in m.items() %}",
    "{% endfor %}",
    "{% set n = 1 %}",
    "{% set block %}",
    "{% endset %}",
    "{% macro m() %}",
    "{% endmacro %}",
    "{% raw %}",
    "{% endraw %}",
    "a={{ x",
    "{# a comment #}",
    "{# open",
    "b={% if x %}1{% else %}2{% endif %}",
    "c={{ '%}' }}",
    "{% if x",
];

fn generate(rng: &mut rng::Rng, lines: &[&str], count: usize) -> Vec<String> {
    (0..count)
        .map(|_| {
            let length = rng.between(1, 7);
            let mut text: String = (0..length)
                .map(|_| format!("{}\n", lines[rng.below(lines.len())]))
                .collect();
            if text.trim().is_empty() {
                text = "kafka-1\n".into();
            }
            text
        })
        .collect()
}

#[test]
fn inventories_are_refused_exactly_when_ansible_refuses_them() {
    if !support::external_tools(SUITE) {
        return;
    }
    let mut rng = rng::Rng(34);
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for (index, text) in generate(&mut rng, INI_LINES, 200).into_iter().enumerate() {
        let name = if index % 2 == 0 {
            format!("hosts-{index}")
        } else {
            format!("hosts-{index}.ini")
        };
        files.push((name, text));
    }
    for (index, text) in generate(&mut rng, YAML_LINES, 150).into_iter().enumerate() {
        files.push((format!("inventory-{index}.yml"), text));
    }
    let mut paths = Vec::new();
    for (name, text) in &files {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        paths.push(path);
    }
    // Each file a source of an inventory of its own, parsed by ansible-core's InventoryManager
    // (what `ansible-inventory -i FILE` runs): `parse_source` says whether any plugin took it.
    let script = "import sys\n\
        from ansible.parsing.dataloader import DataLoader\n\
        from ansible.inventory.manager import InventoryManager\n\
        loader = DataLoader()\n\
        for path in sys.argv[1:]:\n\
        \x20   inventory = InventoryManager(loader=loader, sources=[])\n\
        \x20   print('ok' if inventory.parse_source(path) else 'refused')\n";
    let output = Command::new("ansible-python")
        .arg("-c")
        .arg(script)
        .args(&paths)
        .env("ANSIBLE_CONFIG", dir.path().join("none.cfg"))
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let verdicts: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|line| *line == "ok" || *line == "refused")
        .map(str::to_string)
        .collect();
    assert_eq!(verdicts.len(), files.len());
    let mut differ = Vec::new();
    let mut refused_count = 0;
    for ((name, text), verdict) in files.iter().zip(&verdicts) {
        let ansible = verdict == "refused";
        let kafkalint = inventory_syntax::refusal(name, text);
        refused_count += usize::from(ansible);
        if ansible != kafkalint.is_some() {
            differ.push(format!(
                "{name}: ansible refuses: {ansible}, kafkalint: {kafkalint:?}\n{text}"
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    // Both kinds are among the cases.
    assert!(
        refused_count > 20 && refused_count < files.len() - 20,
        "{refused_count}"
    );
}

#[test]
fn templates_are_refused_exactly_when_jinja_refuses_them() {
    if !support::external_tools(SUITE) {
        return;
    }
    let mut rng = rng::Rng(35);
    let dir = tempfile::tempdir().unwrap();
    let templates = generate(&mut rng, JINJA_LINES, 400);
    let mut paths = Vec::new();
    for (index, text) in templates.iter().enumerate() {
        let path = dir.path().join(format!("t-{index}.j2"));
        std::fs::write(&path, text).unwrap();
        paths.push(path);
    }
    // Ansible's own Jinja (the one its venv holds), with the extensions whose tags the
    // templates use none of.
    let script = "import sys, jinja2\n\
        env = jinja2.Environment()\n\
        for path in sys.argv[1:]:\n\
        \x20   try:\n\
        \x20       env.parse(open(path).read())\n\
        \x20       print('ok')\n\
        \x20   except jinja2.TemplateSyntaxError as e:\n\
        \x20       print('refused', e.lineno)\n";
    let output = Command::new("ansible-python")
        .arg("-c")
        .arg(script)
        .args(&paths)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let verdicts: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(verdicts.len(), templates.len());
    let mut differ = Vec::new();
    let mut refused_count = 0;
    for (text, verdict) in templates.iter().zip(&verdicts) {
        let jinja = verdict.starts_with("refused");
        refused_count += usize::from(jinja);
        let kafkalint = jinja_syntax::refusal(text);
        if jinja != kafkalint.is_some() {
            differ.push(format!(
                "jinja: {verdict}, kafkalint: {kafkalint:?}\n{text}"
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n---\n"));
    assert!(
        refused_count > 20 && refused_count < templates.len() - 20,
        "{refused_count}"
    );
}
