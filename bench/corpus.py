#!/usr/bin/env python3
"""Generates the benchmark corpus: clusters of broker config files, as an estate keeps them.

    bench/corpus.py [DIR] [--clusters N] [--brokers N] [--seed N] [--self-test]

Writes DIR/cluster-NNNN/server-B.properties (default DIR: target/bench-corpus, 1,000 clusters of
10 brokers, seed 7) and prints the SHA-256 of the whole corpus (every path and its bytes, in path
order): the same seed and sizes give the same bytes, on any machine and Python 3.8+. --self-test
generates the corpus twice in memory, checks that both digests agree and that another seed
differs, and writes nothing.

The files follow Kafka's stock config/server.properties (ZooKeeper mode, 3.x) and
config/kraft/server.properties: the same section banners and comments, then the settings an
operator changes per broker (ids, listeners, advertised hosts, ports, log directories). Each
cluster gets one profile, drawn from the seed:

  clean             3 replicas for the internal topics, min ISR 2, the same values everywhere
  stock-rf1         the stock file's offsets/transaction replication factor 1 (and min ISR 1)
  rf-above-brokers  an internal topic replication factor above the 10 brokers
  min-isr-at-rf     transaction.state.log.min.isr equal to its replication factor
  differs           one broker with another value of a cluster-wide setting

Half the clusters run in ZooKeeper mode (checked against Kafka 3.9), half in KRaft mode (three
combined broker+controller nodes, the others brokers only). Some clusters run one broker per
host (port 9092 everywhere), others several brokers per host (one port each).
"""

import argparse
import hashlib
import os
import random
import re
import shutil
import sys

LICENSE = """\
# Licensed to the Apache Software Foundation (ASF) under one or more
# contributor license agreements.  See the NOTICE file distributed with
# this work for additional information regarding copyright ownership.
# The ASF licenses this file to You under the Apache License, Version 2.0
# (the "License"); you may not use this file except in compliance with
# the License.  You may obtain a copy of the License at
#
#    http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""

SOCKET_COMMENT = """\
# The address the socket server listens on. It will get the value returned from
# java.net.InetAddress.getCanonicalHostName() if not configured.
#   FORMAT:
#     listeners = listener_name://host_name:port
#   EXAMPLE:
#     listeners = PLAINTEXT://your.host.name:9092
"""

ADVERTISED_COMMENT = """\
# Hostname and port the broker will advertise to producers and consumers. If not set,
# it uses the value for "listeners" if configured.  Otherwise, it will use the value
# returned from java.net.InetAddress.getCanonicalHostName().
"""

THREADS = """\
# The number of threads that the server uses for receiving requests from the network and sending responses to the network
num.network.threads={network}

# The number of threads that the server uses for processing requests, which may include disk I/O
num.io.threads={io}

# The send buffer (SO_SNDBUF) used by the socket server
socket.send.buffer.bytes=102400

# The receive buffer (SO_RCVBUF) used by the socket server
socket.receive.buffer.bytes=102400

# The maximum size of a request that the socket server will accept (protection against OOM)
socket.request.max.bytes=104857600
"""

LOG_BASICS = """\
############################# Log Basics #############################

# A comma separated list of directories under which to store log files
log.dirs={log_dirs}

# The default number of log partitions per topic. More partitions allow greater
# parallelism for consumption, but this will also result in more files across
# the brokers.
num.partitions={partitions}

# The number of threads per data directory to be used for log recovery at startup and flushing at shutdown.
# This value is recommended to be increased for installations with data dirs located in RAID array.
num.recovery.threads.per.data.dir={recovery}
"""

INTERNAL_TOPICS = """\
############################# Internal Topic Settings  #############################
# The replication factor for the group metadata internal topics "__consumer_offsets" and "__transaction_state"
# For anything other than development testing, a value greater than 1 is recommended to ensure availability such as 3.
offsets.topic.replication.factor={offsets_rf}
transaction.state.log.replication.factor={txn_rf}
transaction.state.log.min.isr={txn_min_isr}
"""

FLUSH = """\
############################# Log Flush Policy #############################

# Messages are immediately written to the filesystem but by default we only fsync() to sync
# the OS cache lazily. The following configurations control the flush of data to disk.
# There are a few important trade-offs here:
#    1. Durability: Unflushed data may be lost if you are not using replication.
#    2. Latency: Very large flush intervals may lead to latency spikes when the flush does occur as there will be a lot of data to flush.
#    3. Throughput: The flush is generally the most expensive operation, and a small flush interval may lead to excessive seeks.
# The settings below allow one to configure the flush policy to flush data after a period of time or
# every N messages (or both). This can be done globally and overridden on a per-topic basis.

# The number of messages to accept before forcing a flush of data to disk
#log.flush.interval.messages=10000

# The maximum amount of time a message can sit in a log before we force a flush
#log.flush.interval.ms=1000
"""

RETENTION = """\
############################# Log Retention Policy #############################

# The following configurations control the disposal of log segments. The policy can
# be set to delete segments after a period of time, or after a given size has accumulated.
# A segment will be deleted whenever *either* of these criteria are met. Deletion always happens
# from the end of the log.

# The minimum age of a log file to be eligible for deletion due to age
log.retention.hours={retention_hours}

# A size-based retention policy for logs. Segments are pruned from the log unless the remaining
# segments drop below log.retention.bytes. Functions independently of log.retention.hours.
#log.retention.bytes=1073741824

# The maximum size of a log segment file. When this size is reached a new log segment will be created.
log.segment.bytes=1073741824

# The interval at which log segments are checked to see if they can be deleted according
# to the retention policies
log.retention.check.interval.ms=300000
"""

ZOOKEEPER = """\
############################# Zookeeper #############################

# Zookeeper connection string (see zookeeper docs for details).
# This is a comma separated host:port pairs, each corresponding to a zk
# server. e.g. "127.0.0.1:3000,127.0.0.1:3001,127.0.0.1:3002".
# You can also append an optional chroot string to the urls to specify the
# root directory for all kafka znodes.
zookeeper.connect={zookeeper_connect}

# Timeout in ms for connecting to zookeeper
zookeeper.connection.timeout.ms=18000
"""

GROUP_COORDINATOR = """\
############################# Group Coordinator Settings #############################

# The following configuration specifies the time, in milliseconds, that the GroupCoordinator will delay the initial consumer rebalance.
# The rebalance will be further delayed by the value of group.initial.rebalance.delay.ms as new members join the group, up to a maximum of max.poll.interval.ms.
# The default value for this is 3 seconds.
# We override this to 0 here as it makes for a better out-of-the-box experience for development and testing.
# However, in production environments the default value of 3 seconds is more suitable as this will help to avoid unnecessary, and potentially expensive, rebalances during application startup.
group.initial.rebalance.delay.ms={rebalance_delay}
"""

PROFILES = [
    # (name, weight)
    ("clean", 40),
    ("stock-rf1", 20),
    ("rf-above-brokers", 10),
    ("min-isr-at-rf", 10),
    ("differs", 20),
]

# Cluster-wide settings one broker of a "differs" cluster gets another value of: (key, usual, odd).
DIFFERING = [
    ("num.partitions", "6", "3"),
    ("log.retention.hours", "168", "72"),
    ("min.insync.replicas", "2", "1"),
    ("offsets.topic.num.partitions", "50", "100"),
    ("auto.create.topics.enable", "false", "true"),
]

ENVIRONMENTS = ["prod", "staging", "qa", "perf", "dr"]
SITES = ["eu-west-1", "us-east-1", "ap-south-1", "dc1", "dc2"]


def pick_profile(rng):
    total = sum(weight for _, weight in PROFILES)
    roll = rng.randrange(total)
    for name, weight in PROFILES:
        if roll < weight:
            return name
        roll -= weight
    raise AssertionError("unreachable")


def cluster_files(index, brokers, rng):
    """The files of one cluster: a list of (relative path, bytes), and its profile."""
    profile = pick_profile(rng)
    kraft = rng.random() < 0.5
    env = rng.choice(ENVIRONMENTS)
    site = rng.choice(SITES)
    name = f"{env}-{index:04d}"
    domain = f"{site}.example.internal"
    shared_host = rng.random() < 0.3  # several brokers per host, one port each
    hosts_per_cluster = 2 if shared_host else brokers
    two_listeners = rng.random() < 0.5  # INTERNAL + EXTERNAL, else PLAINTEXT only
    disks = rng.choice([1, 1, 2, 4])
    settings = {
        "network": rng.choice([3, 3, 6, 8]),
        "io": rng.choice([8, 8, 16]),
        "partitions": "6",
        "recovery": rng.choice([1, 2, 4]),
        "retention_hours": "168",
        "rebalance_delay": rng.choice([0, 3000, 3000]),
        "offsets_rf": "3",
        "txn_rf": "3",
        "txn_min_isr": "2",
        "min_isr": "2",
        "default_rf": "3",
        "auto_create": "false",
        "offsets_partitions": None,
    }
    if profile == "stock-rf1":
        settings.update(offsets_rf="1", txn_rf="1", txn_min_isr="1")
    elif profile == "rf-above-brokers":
        settings["offsets_rf" if rng.random() < 0.5 else "txn_rf"] = str(
            brokers + rng.choice([2, 5])
        )
    elif profile == "min-isr-at-rf":
        settings["txn_min_isr"] = settings["txn_rf"]
    odd_broker, odd_key, odd_value = None, None, None
    if profile == "differs":
        odd_broker = rng.randrange(brokers)
        odd_key, usual, odd_value = rng.choice(DIFFERING)
        if odd_key == "offsets.topic.num.partitions":
            settings["offsets_partitions"] = usual

    zk_chroot = f"/kafka-{name}"
    zk_connect = ",".join(f"zk{z}.{domain}:2181" for z in range(1, 4)) + zk_chroot
    controllers = min(3, brokers)

    def host(broker):
        return f"kafka-{name}-{broker % hosts_per_cluster}.{domain}"

    def port(broker, base):
        # Brokers sharing a host take ports 10 apart, so a broker's and a controller's never meet.
        return base + (10 * (broker // hosts_per_cluster) if shared_host else 0)

    files = []
    for broker in range(brokers):
        values = dict(settings)
        if broker == odd_broker:
            field = {
                "num.partitions": "partitions",
                "log.retention.hours": "retention_hours",
                "min.insync.replicas": "min_isr",
                "offsets.topic.num.partitions": "offsets_partitions",
                "auto.create.topics.enable": "auto_create",
            }[odd_key]
            values[field] = odd_value
        if shared_host:
            dirs = [f"/data{d}/kafka/broker-{broker}" for d in range(1, disks + 1)]
        else:
            dirs = [f"/data{d}/kafka" for d in range(1, disks + 1)]
        if disks == 1:
            dirs = [f"/var/lib/kafka/data-{broker}" if shared_host else "/var/lib/kafka/data"]
        values["log_dirs"] = ",".join(dirs)

        out = [LICENSE]
        if kraft:
            combined = broker < controllers
            out.append(
                "\n#\n# This configuration file is intended for use in KRaft mode, where\n"
                "# Apache ZooKeeper is not present.\n#\n\n"
            )
        else:
            out.append("# see kafka.server.KafkaConfig for additional details and defaults\n\n")
        out.append("############################# Server Basics #############################\n\n")
        if kraft:
            roles = "broker,controller" if combined else "broker"
            out.append(f"# The role of this server. Setting this puts us in KRaft mode\nprocess.roles={roles}\n\n")
            out.append(f"# The node id associated with this instance's roles\nnode.id={broker}\n\n")
            voters = ",".join(f"{c}@{host(c)}:{port(c, 9093)}" for c in range(controllers))
            out.append(f"# The connect string for the controller quorum\ncontroller.quorum.voters={voters}\n\n")
        else:
            out.append(
                "# The id of the broker. This must be set to a unique integer for each broker.\n"
                f"broker.id={broker}\n\n"
            )
        out.append("############################# Socket Server Settings #############################\n\n")
        out.append(SOCKET_COMMENT)
        internal = "INTERNAL" if two_listeners else "PLAINTEXT"
        listeners = [f"{internal}://:{port(broker, 9092)}"]
        advertised = [f"{internal}://{host(broker)}:{port(broker, 9092)}"]
        if two_listeners:
            listeners.append(f"EXTERNAL://:{port(broker, 19092)}")
            advertised.append(f"EXTERNAL://{name}-{broker}.kafka.example.com:{port(broker, 19092)}")
        if kraft and combined:
            listeners.append(f"CONTROLLER://:{port(broker, 9093)}")
        out.append(f"listeners={','.join(listeners)}\n")
        if two_listeners or kraft:
            out.append(f"inter.broker.listener.name={internal}\n")
        out.append("\n" + ADVERTISED_COMMENT)
        out.append(f"advertised.listeners={','.join(advertised)}\n\n")
        if kraft:
            out.append(
                "# Listener, host name, and port for the controller to advertise to the brokers. If\n"
                "# this server is a controller, this listener must be configured.\n"
                "controller.listener.names=CONTROLLER\n\n"
            )
        if two_listeners or kraft:
            protocols = [f"{internal}:PLAINTEXT"]
            if two_listeners:
                protocols.append("EXTERNAL:PLAINTEXT")
            if kraft:
                protocols.append("CONTROLLER:PLAINTEXT")
            out.append(
                "# Maps listener names to security protocols, the default is for them to be the same. "
                "See the config documentation for more details\n"
                f"listener.security.protocol.map={','.join(sorted(protocols))}\n\n"
            )
        out.append(THREADS.format(**values))
        out.append("\n\n" + LOG_BASICS.format(**values))
        out.append("\n" + INTERNAL_TOPICS.format(**values))
        if values["offsets_partitions"] is not None:
            out.append(f"offsets.topic.num.partitions={values['offsets_partitions']}\n")
        out.append("\n############################# Replication #############################\n\n")
        out.append(
            "# Topics created without a replication factor, and the acks=all durability floor.\n"
            f"default.replication.factor={values['default_rf']}\n"
            f"min.insync.replicas={values['min_isr']}\n"
            f"auto.create.topics.enable={values['auto_create']}\n"
        )
        out.append("\n" + FLUSH)
        out.append("\n" + RETENTION.format(**values))
        if not kraft:
            out.append("\n" + ZOOKEEPER.format(zookeeper_connect=zk_connect))
        out.append("\n" + GROUP_COORDINATOR.format(**values))
        text = "".join(out)
        files.append((f"cluster-{index:04d}/server-{broker}.properties", text.encode("ascii")))
    return files, profile, kraft


def corpus(clusters, brokers, seed):
    """Every file of the corpus, in path order, and the count of clusters per profile and mode."""
    rng = random.Random(seed)
    files = []
    counts = {}
    for index in range(clusters):
        cluster, profile, kraft = cluster_files(index, brokers, rng)
        files.extend(cluster)
        mode = "kraft" if kraft else "zookeeper"
        counts[(profile, mode)] = counts.get((profile, mode), 0) + 1
    files.sort()
    return files, counts


def digest(files):
    sha = hashlib.sha256()
    for path, data in files:
        sha.update(path.encode("ascii") + b"\0" + len(data).to_bytes(8, "big") + data)
    return sha.hexdigest()


CLUSTER_DIR = re.compile(r"^cluster-\d{4,}$")


def write(folder, files):
    if os.path.exists(folder):
        strangers = [name for name in os.listdir(folder) if not CLUSTER_DIR.match(name)]
        if strangers:
            sys.exit(f"corpus.py: {folder} holds more than a corpus ({strangers[0]}): not overwriting it")
        shutil.rmtree(folder)
    for path, data in files:
        target = os.path.join(folder, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as out:
            out.write(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", nargs="?", default=os.path.join("target", "bench-corpus"))
    parser.add_argument("--clusters", type=int, default=1000)
    parser.add_argument("--brokers", type=int, default=10)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.brokers < 3:
        sys.exit("corpus.py: --brokers must be at least 3 (the clean profile uses 3 replicas)")

    if args.self_test:
        first, _ = corpus(args.clusters, args.brokers, args.seed)
        second, _ = corpus(args.clusters, args.brokers, args.seed)
        other, _ = corpus(args.clusters, args.brokers, args.seed + 1)
        if digest(first) != digest(second):
            sys.exit("corpus.py: self-test failed: one seed gave two corpora")
        if digest(first) == digest(other):
            sys.exit("corpus.py: self-test failed: two seeds gave one corpus")
        print(f"self-test passed: seed {args.seed} gives sha256 {digest(first)} twice; seed {args.seed + 1} another")
        return

    files, counts = corpus(args.clusters, args.brokers, args.seed)
    write(args.dir, files)
    size = sum(len(data) for _, data in files)
    print(
        f"{len(files)} files ({size / 1e6:.1f} MB) in {args.clusters} clusters of {args.brokers} brokers "
        f"under {args.dir}, seed {args.seed}, sha256 {digest(files)}"
    )
    for (profile, mode), count in sorted(counts.items()):
        print(f"  {profile:<17} {mode:<9} {count:>5} clusters")


if __name__ == "__main__":
    main()
