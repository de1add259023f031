rest_endpoint  = "https://pkc-4n66v.australiaeast.azure.confluent.cloud:443"
cluster_id     = "lkc-xrpro1"