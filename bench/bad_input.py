#!/usr/bin/env python3
"""Writes the large and hostile inputs bench/bad-input.sh times, under the folder given.

Each input is one folder: alias-bomb/ (a 9-level YAML alias bomb), alias-bomb-walk/ (the same
as a compose file beside a broker, for a folder walk), alias-bomb-merge/ (the same through merge keys), deep/ (100,000 nested flow and block
collections), compose-10000/ (10,000 Kafka services on one host sharing a log directory; -one-port/:
all on localhost:9092; -bind-all/: all binding port 9092, each advertising a port of its own),
unknown-80000/ (80,000 distinct unknown keys), million/ (1,000,000 lines under the 16 MiB cap),
clusters-20000/ (a kafkalint.toml declaring 20,000 clusters, one broker file each), fifo/
(the script makes the FIFO itself), ansible-diamond-30/ (a role whose inventory's groups form a
diamond 30 levels deep), ansible-ranges-5005/ and -20020/ (5 and 20 host ranges of 1,001),
cp-ansible-4000/ (4,000 brokers), snapshot-80000/ (a saved live snapshot of 80,000 topics),
snapshot-200000/ (100 brokers, 20,000 topics, 200,000 partitions: `large_snapshot`) and
terraform-800/ (800 `.tf` files of a release each), deep-*/ and lsp-huge-header/ (see
`deep_inputs`). Deterministic: no randomness.
"""

import json
import os
import sys

BROKER = """broker.id={id}
zookeeper.connect=zk-1:2181,zk-2:2181,zk-3:2181/kafka
listeners=PLAINTEXT://kafka-{id}:9092
log.dirs=/var/lib/kafka/data
offsets.topic.replication.factor=3
transaction.state.log.replication.factor=3
default.replication.factor=3
min.insync.replicas=2
"""

COMPOSE_HEAD = "services:\n  kafka:\n    image: apache/kafka:3.9.0\n"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def alias_bomb():
    """Nine anchors, each a list of ten aliases of the one before: 10^9 scalars expanded."""
    lines = [COMPOSE_HEAD.rstrip("\n"), "a0: &a0 [" + ", ".join(["lol"] * 10) + "]"]
    for level in range(1, 9):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 10) + "]")
    return "\n".join(lines) + "\n"


def alias_bomb_merge():
    """The same growth through merge keys: each mapping merges the one before and holds it
    under nine keys of its own."""
    lines = [COMPOSE_HEAD.rstrip("\n"), "m0: &m0 {" + ", ".join(f"k{i}: lol" for i in range(10)) + "}"]
    for level in range(1, 9):
        own = ", ".join(f"k{i}: *m{level - 1}" for i in range(1, 10))
        lines.append(f"m{level}: &m{level} {{<<: *m{level - 1}, {own}}}")
    return "\n".join(lines) + "\n"


def compose(services, same_port=False, bind_all=False):
    """Kafka services that all advertise localhost (one machine) and keep their data in one
    directory: every node shares it with every other. `same_port`: all bind and advertise
    localhost:9092 (copies of one address); `bind_all`: each advertises a port of its own but
    all bind port 9092 on every interface (every node clashes with every other)."""
    out = ["services:"]
    for index in range(services):
        port = 9092 if same_port else 10000 + index
        bound = "PLAINTEXT://:9092" if bind_all else f"PLAINTEXT://localhost:{port}"
        out.append(
            f"""  kafka-{index}:
    image: confluentinc/cp-kafka:7.5.0
    environment:
      KAFKA_BROKER_ID: {index}
      KAFKA_ZOOKEEPER_CONNECT: zookeeper:2181
      KAFKA_LISTENERS: {bound}
      KAFKA_ADVERTISED_LISTENERS: PLAINTEXT://localhost:{port}
      KAFKA_LOG_DIRS: /var/lib/kafka/data
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: 3"""
        )
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# Inventories, snapshots and Terraform modules whose work grew faster than their size: each is
# linear now, and these sizes end well within a second when it is.
# ---------------------------------------------------------------------------------------------

ROLE_TEMPLATE = """broker.id={{ groups['kafka'].index(inventory_hostname) + 1 }}
zookeeper.connect=zk-1:2181,zk-2:2181,zk-3:2181/kafka
listeners=PLAINTEXT://{{ inventory_hostname }}:9092
log.dirs=/var/lib/kafka/data
offsets.topic.replication.factor={{ replication_factor }}
"""

PLAYBOOK = "- hosts: kafka\n  roles:\n    - kafka\n"


def ansible_role_project(out, inventory_name, inventory):
    """A playbook applying role `kafka` (whose template indexes group `kafka`) to the hosts of
    `inventory`, written beside it as `inventory_name`."""
    write(f"{out}/roles/kafka/templates/server.properties.j2", ROLE_TEMPLATE)
    write(f"{out}/roles/kafka/defaults/main.yml", "replication_factor: 3\n")
    write(f"{out}/site.yml", PLAYBOOK)
    write(f"{out}/{inventory_name}", inventory)


def diamond_inventory(levels):
    """Groups in a diamond, `levels` deep: each of a level's two groups has both groups of the
    next level as children; one host at the bottom. 2^levels paths up from it, about 60 bytes a
    level."""
    out = ["[kafka:children]", "d0a", "d0b"]
    for level in range(levels - 1):
        for side in "ab":
            out += [f"[d{level}{side}:children]", f"d{level + 1}a", f"d{level + 1}b"]
    out += [f"[d{levels - 1}a]", "kafka-1", f"[d{levels - 1}b]", "kafka-1"]
    return "\n".join(out) + "\n"


def ranged_inventory(lines, last=1000):
    """`lines` host lines of group `kafka`, each a range of `last + 1` hosts."""
    return "[kafka]\n" + "".join(f"rack{n}-kafka-[0:{last}]\n" for n in range(lines))


def cp_ansible_inventory(hosts):
    """A cp-ansible inventory of `hosts` brokers under `kafka_broker`, one variable each."""
    out = ["all:", "  vars:", "    confluent_package_version: 7.6.1", "kafka_broker:", "  hosts:"]
    for n in range(hosts):
        out += [f"    kafka-{n}.example.com:", f"      broker_id: {n + 1}"]
    return "\n".join(out) + "\n"


def snapshot(topics):
    """A saved `kafkalint live` snapshot of `topics` topics of one partition each."""
    out = ["bootstrap=127.0.0.1:9092", "cluster.id=MkU3OEVBNTcwNTJENDM2Qk", "controller=0"]
    out += ["broker.0=127.0.0.1:9092"]
    for n in range(topics):
        out.append(f"topic.orders-{n}=internal=false partitions=1 min.insync.replicas=1")
    for n in range(topics):
        out.append(f"partition.orders-{n}-0=leader=0 replicas=0 isr=0")
    return "\n".join(out) + "\n"


def large_snapshot(brokers, topics, partitions, lone_replica_every=10):
    """A saved snapshot of a large cluster: `brokers` brokers in three racks, `topics` topics
    of `partitions` partitions, three replicas each placed round the brokers, every
    `lone_replica_every`-th topic with one replica (each a finding once a broker is named in
    `--stopping`), 200 groups. Deterministic: no randomness."""
    out = ["bootstrap=127.0.0.1:9092", "cluster.id=MkU3OEVBNTcwNTJENDM2Qk", "controller=0",
           "cluster.operations=ALTER,DESCRIBE,DESCRIBE_CONFIGS"]
    for b in range(brokers):
        out += [f"broker.{b}=10.0.{b // 250}.{b % 250}:9092", f"broker.{b}.rack=rack-{b % 3}"]
    names = sorted(["__consumer_offsets"] + [f"topic-{n:06d}" for n in range(topics - 1)])
    for t, name in enumerate(names):
        internal = name == "__consumer_offsets"
        count = 50 if internal else partitions
        out.append(f"topic.{name}=internal={str(internal).lower()} partitions={count} min.insync.replicas=2")
        for p in range(count):
            first = (t * 7 + p) % brokers
            replicas = [first] if not internal and t % lone_replica_every == 0 else [
                first, (first + 1) % brokers, (first + 2) % brokers]
            ids = ",".join(map(str, replicas))
            out.append(f"partition.{name}-{p}=leader={first} replicas={ids} isr={ids}")
    # Every broker setting a 3.9 broker answers DescribeConfigs with (its defaults, as Kafka's
    # catalogue has them), two set in its file, and one dynamic override: about 270 lines a
    # broker, as `kafkalint live` writes them for a real cluster.
    catalogue = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "catalog", "data", "kafka-3.9.json")
    with open(catalogue, encoding="utf-8") as handle:
        defaults = [(c["name"], c["default"]) for c in json.load(handle)["configs"]
                    if c["default"] is not None and c["type"] != "PASSWORD"]
    for b in range(brokers):
        for key, value in [("offsets.topic.replication.factor", "3"), ("min.insync.replicas", "2")]:
            out.append(f"config.{b}.static.{key}={value}")
        out.append(f"config.{b}.dynamic.log.cleaner.threads={1 + b % 2}")
        for key, value in defaults:
            out.append(f"config.{b}.default.{key}={value}")
    for g in range(200):
        out.append(f"group.group-{g}=coordinator={g % brokers} state=Stable")
    return "\n".join(out) + "\n"


def terraform_release(n):
    """A `.tf` file with a bitnami/kafka release and a variable of its own."""
    return f"""variable "brokers_{n}" {{
  default = 3
}}

resource "helm_release" "kafka_{n}" {{
  name       = "kafka-{n}"
  repository = "https://charts.bitnami.com/bitnami"
  chart      = "kafka"
  version    = "26.8.5"

  set {{
    name  = "controller.replicaCount"
    value = var.brokers_{n}
  }}
}}
"""


def growing_work(out):
    ansible_role_project(f"{out}/ansible-diamond-30", "hosts.ini", diamond_inventory(30))
    ansible_role_project(f"{out}/ansible-ranges-5005", "hosts.ini", ranged_inventory(5))
    # 20 ranges of 1,001: over the 10,000 expanded hosts an inventory may have.
    ansible_role_project(f"{out}/ansible-ranges-20020", "hosts.ini", ranged_inventory(20))
    write(f"{out}/cp-ansible-4000/hosts.yml", cp_ansible_inventory(4_000))
    write(f"{out}/snapshot-80000/snapshot.properties", snapshot(80_000))
    write(f"{out}/snapshot-200000/snapshot.properties", large_snapshot(100, 20_000, 10))
    for n in range(800):
        write(f"{out}/terraform-800/kafka-{n:03d}.tf", terraform_release(n))

def nested_defaults(levels, innermost="3"):
    """Compose defaults nested `levels` deep: `${UNSET_0:-${UNSET_1-...}}`."""
    opens = "".join(f"${{UNSET_{level % 13}{'-' if level % 3 == 0 else ':-'}" for level in range(levels))
    return opens + innermost + "}" * levels


def statefulset(script):
    """A cp-kafka StatefulSet whose start-up script is `script` (one line)."""
    return f"""apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: kafka
spec:
  serviceName: kafka-headless
  replicas: 3
  selector:
    matchLabels:
      app: kafka
  template:
    metadata:
      labels:
        app: kafka
    spec:
      containers:
        - name: kafka
          image: confluentinc/cp-kafka:7.6.1
          command:
            - sh
            - -c
            - |
              {script}
              exec /etc/confluent/docker/run
          env:
            - name: KAFKA_ZOOKEEPER_CONNECT
              value: zk:2181
"""


def lsp_session(header_length):
    """`initialize`, then a message whose header claims `header_length` bytes."""
    body = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'
    return f"Content-Length: {len(body)}\r\n\r\n{body}Content-Length: {header_length}\r\n\r\n{{"


def deep_inputs(out):
    """Deep nesting: Compose defaults in a value, `.env` and an env_file (200,000 levels),
    arithmetic signs (300,000) and nested `$(( ))` (100,000) in a start-up script, a Jinja
    template of 100,000 nested `if`s and `for`s, and a language-server session whose second
    message claims 1 TB."""
    deep = nested_defaults(200_000)
    service = COMPOSE_HEAD + "    environment:\n      KAFKA_NODE_ID: 1\n"
    write(f"{out}/deep-compose-value/docker-compose.yml", service + f'      KAFKA_NUM_PARTITIONS: "{deep}"\n')
    write(f"{out}/deep-dotenv/.env", f"DEEP={deep}\n")
    write(f"{out}/deep-dotenv/docker-compose.yml", service + "      KAFKA_NUM_PARTITIONS: ${DEEP}\n")
    write(f"{out}/deep-env-file/kafka.env", f'KAFKA_NUM_PARTITIONS="{deep}"\n')
    write(
        f"{out}/deep-env-file/docker-compose.yml",
        service.replace("    environment:", "    env_file: kafka.env\n    environment:"),
    )
    write(f"{out}/deep-arithmetic-signs/kafka.yaml", statefulset("export KAFKA_BROKER_ID=$((" + "-" * 300_000 + "1))"))
    write(
        f"{out}/deep-arithmetic-nested/kafka.yaml",
        statefulset("export KAFKA_BROKER_ID=" + "$((" * 100_000 + "1" + "))" * 100_000),
    )
    template = f"{out}/deep-jinja/roles/kafka/templates/server.properties.j2"
    write(
        template,
        "{% if a %}\n" * 50_000 + "{% for k in m %}\n" * 50_000 + "broker.id=1\n"
        + "{% endfor %}\n" * 50_000 + "{% endif %}\n" * 50_000,
    )
    write(f"{out}/lsp-huge-header/input", lsp_session(1_000_000_000_000))


def main():
    out = sys.argv[1]
    deep_inputs(out)
    write(f"{out}/alias-bomb/alias-bomb.yml", alias_bomb())
    # In a walk, beside a broker: the broker is checked and the bomb passed over with a note.
    write(f"{out}/alias-bomb-walk/docker-compose.yml", alias_bomb())
    write(f"{out}/alias-bomb-walk/server.properties", BROKER.format(id=0))
    write(f"{out}/alias-bomb-merge/docker-compose.yml", alias_bomb_merge())
    write(f"{out}/deep/flow.yml", "x: " + "[" * 100_000 + "]" * 100_000 + "\n")
    write(f"{out}/deep/block.yml", "- " * 100_000 + "x\n")
    write(f"{out}/compose-10000/docker-compose.yml", compose(10_000))
    write(f"{out}/compose-10000-one-port/docker-compose.yml", compose(10_000, same_port=True))
    write(f"{out}/compose-10000-bind-all/docker-compose.yml", compose(10_000, bind_all=True))
    unknown = "".join(f"custom.setting{n}.value=1\n" for n in range(80_000))
    write(f"{out}/unknown-80000/server.properties", BROKER.format(id=0) + unknown)
    million = "".join(f"a.{n:06d}=1\n" for n in range(1_000_000))
    write(f"{out}/million/server.properties", BROKER.format(id=0) + million)
    toml = "".join(
        f'[[clusters]]\nname = "c{n}"\nfiles = ["c{n}/*.properties"]\n\n' for n in range(20_000)
    )
    write(f"{out}/clusters-20000/kafkalint.toml", toml)
    for n in range(20_000):
        write(f"{out}/clusters-20000/c{n}/server-0.properties", BROKER.format(id=0))
    os.makedirs(f"{out}/fifo", exist_ok=True)
    growing_work(out)


if __name__ == "__main__":
    main()
