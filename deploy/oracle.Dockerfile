# bin/oracle as an image, for the demo of docker-compose.yml (prepare, then declare, the examples)
# and for comparing a deployed system with PostgreSQL. Built from the oracle module:
#   mvn -B package -DskipTests && mvn -B -pl oracle dependency:copy-dependencies -DoutputDirectory=target/lib
#   docker build -f deploy/oracle.Dockerfile -t mtables/oracle .
# PostgreSQL from MT_PG_HOST, MT_PG_PORT, MT_PG_USER, MT_PG_PASSWORD, MT_PG_DB; Kafka from
# KAFKA_BOOTSTRAP_SERVERS; ddl-service from MT_DDL_URL.
FROM eclipse-temurin:17-jre

RUN useradd --uid 185 --home-dir /deployments --create-home mt
COPY --chown=185 oracle/target/lib/ /deployments/lib/
COPY --chown=185 oracle/target/classes/ /deployments/classes/
COPY --chown=185 deploy/oracle-examples.sh /deployments/
USER 185
ENTRYPOINT ["/deployments/oracle-examples.sh"]
