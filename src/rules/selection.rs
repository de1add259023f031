//! `--select`, `--extend-select` and `--ignore`: which rules run, chosen on the command line
//! over what `kafkalint.toml` chooses, as ruff combines its command line with its settings.
//!
//! The file is one layer (its `select`, `ignore` and `severity = "off"`), the command line the
//! next: `--select` replaces what the file selects (its ignores included), `--extend-select`
//! adds to it, `--ignore` takes from it. Within the command line a rule name is more specific
//! than a group and wins over it, whichever flag names it (`--select hygiene --ignore
//! unknown-key` runs every hygiene rule but that one; `--select unknown-key --ignore hygiene`
//! runs it); between two selectors of one kind, `--ignore` wins.

use crate::config::Config;

use super::{Group, RULES};

/// Every group, in the order `kafkalint rules` documents them.
pub const GROUPS: [Group; 6] = [
    Group::StartupRefusal,
    Group::Availability,
    Group::Consistency,
    Group::Exposure,
    Group::Hygiene,
    Group::Strict,
];

/// A name given to `--select`, `--extend-select` or `--ignore`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selector {
    Rule(&'static str),
    Group(Group),
}

impl Selector {
    /// The rule or group named `name`; else a one-line error naming it, with the nearest rule
    /// or group name when one is near.
    pub fn parse(name: &str) -> Result<Selector, String> {
        if let Some(rule) = RULES.iter().find(|rule| rule.name == name) {
            return Ok(Selector::Rule(rule.name));
        }
        if let Some(group) = GROUPS.iter().find(|group| group.as_str() == name) {
            return Ok(Selector::Group(*group));
        }
        let names = RULES
            .iter()
            .map(|rule| rule.name)
            .chain(GROUPS.iter().map(|group| group.as_str()));
        let hint = crate::catalog::suggest::nearest(name, names)
            .map(|near| format!("; did you mean `{near}`?"))
            .unwrap_or_else(|| " (`kafkalint rules` lists the rules and their groups)".into());
        Err(format!("no rule or rule group named `{name}`{hint}"))
    }

    fn matches(self, rule: &super::Rule) -> bool {
        match self {
            Selector::Rule(name) => rule.name == name,
            Selector::Group(group) => rule.group == group,
        }
    }

    fn is_rule(self) -> bool {
        matches!(self, Selector::Rule(_))
    }
}

/// The rules the command line selects and ignores. The default selects nothing over the file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// `--select`: replaces the file's selection.
    pub select: Option<Vec<Selector>>,
    /// `--extend-select`: added to the file's selection (or to `--select`).
    pub extend_select: Vec<Selector>,
    /// `--ignore`: taken from it.
    pub ignore: Vec<Selector>,
}

impl Selection {
    /// Whether `rule` runs for files checked with `config` (or none).
    pub fn runs(&self, config: Option<&Config>, rule: &str) -> bool {
        let by_file = config.is_none_or(|config| config.runs(rule));
        let Some(rule) = RULES.iter().find(|candidate| candidate.name == rule) else {
            return by_file;
        };
        let selected = self.select.iter().flatten().chain(&self.extend_select);
        // Groups first, then rule names: the last word is the most specific one's; within a
        // kind, ignores come after selections.
        let mut verdict = None;
        for specific in [false, true] {
            if selected
                .clone()
                .any(|selector| selector.is_rule() == specific && selector.matches(rule))
            {
                verdict = Some(true);
            }
            if self
                .ignore
                .iter()
                .any(|selector| selector.is_rule() == specific && selector.matches(rule))
            {
                verdict = Some(false);
            }
        }
        match (&self.select, verdict) {
            (_, Some(verdict)) => verdict,
            (Some(_), None) => false,
            (None, None) => by_file,
        }
    }

    /// Whether the command line selects a rule of the `strict` group by name or by the group:
    /// the rule is asked for, so it runs as with `strict = true` (selecting every rule of
    /// another group does not).
    pub fn asks_strict(&self) -> bool {
        RULES
            .iter()
            .filter(|rule| rule.group == Group::Strict)
            .any(|rule| {
                self.select
                    .iter()
                    .flatten()
                    .chain(&self.extend_select)
                    .any(|selector| selector.matches(rule))
                    && self.runs(None, rule.name)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn selectors(names: &[&str]) -> Vec<Selector> {
        names
            .iter()
            .map(|name| Selector::parse(name).unwrap())
            .collect()
    }

    fn config(text: &str) -> Config {
        Config::parse("kafkalint.toml", ".".into(), text, crate::rules::NAMES).unwrap()
    }

    #[test]
    fn select_replaces_the_files_selection_and_its_ignores() {
        let file = config("select = [\"unknown-key\"]\nignore = [\"duplicate-key\"]\n");
        let cli = Selection {
            select: Some(selectors(&["duplicate-key"])),
            ..Selection::default()
        };
        assert!(cli.runs(Some(&file), "duplicate-key"));
        assert!(!cli.runs(Some(&file), "unknown-key"));
    }

    #[test]
    fn extend_select_adds_and_ignore_takes_away() {
        let file = config("select = [\"unknown-key\"]\n");
        let cli = Selection {
            extend_select: selectors(&["duplicate-key"]),
            ignore: selectors(&["unknown-key"]),
            ..Selection::default()
        };
        assert!(cli.runs(Some(&file), "duplicate-key"));
        assert!(!cli.runs(Some(&file), "unknown-key"));
        assert!(!cli.runs(Some(&file), "removed-key"));
    }

    #[test]
    fn a_rule_name_wins_over_its_group_either_way() {
        let cli = Selection {
            select: Some(selectors(&["hygiene"])),
            ignore: selectors(&["unknown-key"]),
            ..Selection::default()
        };
        assert!(cli.runs(None, "duplicate-key"));
        assert!(!cli.runs(None, "unknown-key"));
        assert!(!cli.runs(None, "min-isr-one"));
        let cli = Selection {
            select: Some(selectors(&["unknown-key"])),
            ignore: selectors(&["hygiene"]),
            ..Selection::default()
        };
        assert!(cli.runs(None, "unknown-key"));
        assert!(!cli.runs(None, "duplicate-key"));
    }

    #[test]
    fn the_strict_group_is_asked_for_only_by_name() {
        let named = |names: &[&str]| Selection {
            select: Some(selectors(names)),
            ..Selection::default()
        };
        assert!(named(&["strict"]).asks_strict());
        assert!(named(&["node-settings-differ"]).asks_strict());
        assert!(!named(&["hygiene", "consistency"]).asks_strict());
        let ignored = Selection {
            ignore: selectors(&["node-settings-differ"]),
            ..named(&["node-settings-differ"])
        };
        assert!(!ignored.asks_strict());
    }

    #[test]
    fn unknown_names_are_refused_with_the_nearest() {
        assert_eq!(
            Selector::parse("unknown-kye").unwrap_err(),
            "no rule or rule group named `unknown-kye`; did you mean `unknown-key`?"
        );
        assert_eq!(
            Selector::parse("hygeine").unwrap_err(),
            "no rule or rule group named `hygeine`; did you mean `hygiene`?"
        );
    }
}
