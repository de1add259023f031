# The conftest column of bench/run.sh: kafkalint's internal-topic-replication,
# min-isr-headroom (internal topics and broker defaults) and inconsistent-cluster-value checks,
# written as a conftest user would write them.
#
#   conftest test --parser properties --combine --policy bench/policy CORPUS_DIR
#
# --combine hands the policy every file at once, as [{"path": ..., "contents": {key: value}}];
# a cluster is the folder of its files, as kafkalint reads a folder walk. Values are the
# strings of conftest's properties parser (magiconair/properties); a key a file does not set
# takes Kafka's default (KAFKA-FACTS.md, from the broker ConfigDef: offsets and transaction
# replication factors 3, transaction.state.log.min.isr 2, default.replication.factor 1,
# min.insync.replicas 1).
package main

import rego.v1

defaults := {
	"offsets.topic.replication.factor": "3",
	"transaction.state.log.replication.factor": "3",
	"transaction.state.log.min.isr": "2",
	"default.replication.factor": "1",
	"min.insync.replicas": "1",
}

folder(path) := concat("/", array.slice(parts, 0, count(parts) - 1)) if {
	parts := split(path, "/")
}

# Controller-only KRaft nodes are no brokers; every other node file is.
is_broker(contents) if not contents["process.roles"]

is_broker(contents) if {
	"broker" in {trim_space(role) | some role in split(contents["process.roles"], ",")}
}

nodes := [{"cluster": folder(file.path), "path": file.path, "contents": file.contents} |
	some file in input
]

# Each cluster's brokers: grouped with an equality on the outer variable, which OPA indexes.
clusters := {name: brokers |
	some node in nodes
	name := node.cluster
	brokers := [broker |
		some broker in nodes
		broker.cluster == name
		is_broker(broker.contents)
	]
}

value(contents, key) := trim_space(contents[key])

value(contents, key) := defaults[key] if not contents[key]

number(contents, key) := to_number(value(contents, key))

internal_topics := {
	"offsets.topic.replication.factor": "__consumer_offsets",
	"transaction.state.log.replication.factor": "__transaction_state",
}

# internal-topic-replication
deny contains msg if {
	some name, brokers in clusters
	count(brokers) >= 2
	some broker in brokers
	some key, topic in internal_topics
	number(broker.contents, key) == 1
	msg := sprintf("%s: %s=1 on a cluster of %d brokers: %s lives on one broker", [broker.path, key, count(brokers), topic])
}

deny contains msg if {
	some name, brokers in clusters
	some broker in brokers
	some key, topic in internal_topics
	factor := number(broker.contents, key)
	factor > count(brokers)
	msg := sprintf("%s: %s=%d but the cluster has %d brokers: %s cannot be created", [broker.path, key, factor, count(brokers), topic])
}

warn contains msg if {
	some name, brokers in clusters
	some broker in brokers
	some key, _ in internal_topics
	factor := number(broker.contents, key)
	factor > 1
	factor < min([3, count(brokers)])
	msg := sprintf("%s: %s=%d, fewer than 3 replicas", [broker.path, key, factor])
}

# min-isr-headroom: (replication factor, min ISR, severity above the factor)
isr_pairs := [
	["transaction.state.log.replication.factor", "transaction.state.log.min.isr", "deny"],
	["default.replication.factor", "min.insync.replicas", "warn"],
]

headroom contains [level, msg] if {
	some name, brokers in clusters
	some broker in brokers
	some pair in isr_pairs
	[rf_key, isr_key, above] := pair
	factor := number(broker.contents, rf_key)
	min_isr := number(broker.contents, isr_key)
	factor <= count(brokers)
	[level, why] := headroom_finding(factor, min_isr, count(brokers), above)
	msg := sprintf("%s: %s=%d, %s=%d: %s", [broker.path, isr_key, min_isr, rf_key, factor, why])
}

headroom_finding(factor, min_isr, brokers, above) := ["deny", "min ISR above the broker count"] if {
	min_isr > brokers
} else := [above, "min ISR above the replication factor"] if {
	min_isr > factor
} else := ["warn", "min ISR equals the replication factor: no broker may fail"] if {
	min_isr == factor
	factor >= 2
}

deny contains msg if {
	some finding in headroom
	finding[0] == "deny"
	msg := finding[1]
}

warn contains msg if {
	some finding in headroom
	finding[0] == "warn"
	msg := finding[1]
}

# inconsistent-cluster-value: kafkalint's curated list, "list" values compared as sets.
consistent_keys := {
	"zookeeper.connect": "list", "controller.quorum.voters": "list",
	"controller.quorum.bootstrap.servers": "list", "controller.listener.names": "exact",
	"sasl.mechanism.controller.protocol": "exact", "inter.broker.protocol.version": "exact",
	"log.message.format.version": "exact", "inter.broker.listener.name": "exact",
	"security.inter.broker.protocol": "exact", "sasl.mechanism.inter.broker.protocol": "exact",
	"listener.security.protocol.map": "list", "offsets.topic.replication.factor": "exact",
	"offsets.topic.num.partitions": "exact", "transaction.state.log.replication.factor": "exact",
	"transaction.state.log.min.isr": "exact", "transaction.state.log.num.partitions": "exact",
	"share.coordinator.state.topic.replication.factor": "exact",
	"share.coordinator.state.topic.min.isr": "exact",
	"share.coordinator.state.topic.num.partitions": "exact", "default.replication.factor": "exact",
	"num.partitions": "exact", "auto.create.topics.enable": "exact", "min.insync.replicas": "exact",
	"unclean.leader.election.enable": "exact", "log.retention.hours": "exact",
	"log.retention.ms": "exact", "log.retention.bytes": "exact", "log.cleanup.policy": "exact",
	"message.max.bytes": "exact", "compression.type": "exact", "authorizer.class.name": "exact",
	"super.users": "list", "allow.everyone.if.no.acl.found": "exact",
	"sasl.enabled.mechanisms": "list", "delegation.token.secret.key": "exact",
	"transaction.max.timeout.ms": "exact", "offsets.retention.minutes": "exact",
	"group.initial.rebalance.delay.ms": "exact", "group.min.session.timeout.ms": "exact",
	"group.max.session.timeout.ms": "exact",
}

comparable(contents, key, "exact") := trim_space(contents[key])

# The value is bound first: a comprehension over a missing key would be an empty set, not undefined.
comparable(contents, key, "list") := sort(items) if {
	raw := contents[key]
	items := {trim_space(item) | some item in split(raw, ",")}
}

comparable(contents, key, _) := "(Kafka's default)" if not contents[key]

deny contains msg if {
	some name, brokers in clusters
	some key, how in consistent_keys
	seen := {comparable(broker.contents, key, how) | some broker in brokers}
	count(seen) > 1
	msg := sprintf("%s: %s differs across brokers: %v", [name, key, seen])
}
