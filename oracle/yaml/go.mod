module kafkalint.dev/oracle/yaml

go 1.24

require gopkg.in/yaml.v3 v3.0.1
