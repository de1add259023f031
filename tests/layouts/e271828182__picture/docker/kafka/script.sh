docker build -t star/kafka:2.5.0 .

