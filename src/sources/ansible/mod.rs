//! Ansible: Confluent's cp-ansible inventories and plain roles that template a node's
//! configuration.

pub mod compose_template;
pub mod cp_ansible;
pub mod inventory_syntax;
pub mod jinja_syntax;
pub mod role;
