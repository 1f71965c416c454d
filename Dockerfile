# Parlor: one bot process per container. Settings come from the environment (see README);
# compose.yaml runs PostgreSQL and two shard processes.
#
# Two stages. `build` makes the wheel (`pip wheel .`: the code, migrations, rules texts, fonts, the compiled
# translation catalogs and Pylon's compiled board scan) and installs it into a virtual environment at
# /opt/parlor; the runtime stage holds only that environment (no source tree, no pip, no compiler) and runs
# `parlor` as a non-root user. tests/test_wheel.py runs this recipe outside Docker:
# the build stage's COPY lines, the same `pip wheel`, the wheel installed into a fresh environment, then
# the CMD and the HEALTHCHECK below run from an empty folder against a loopback Discord.

FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
# a C compiler for Pylon hard's compiled board scan (setup.py; without one the wheel holds the pure-Python
# scan only, which plays the same moves at about half the speed)
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml README.md setup.py ./
COPY bot ./bot
COPY cogs ./cogs
COPY assets ./assets
RUN pip wheel --no-deps --wheel-dir /wheels . \
    && python -m venv --without-pip /opt/parlor \
    && pip --python /opt/parlor/bin/python install /wheels/parlor-*.whl

FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PATH=/opt/parlor/bin:$PATH \
    PARLOR_METRICS_PORT=9108
COPY --from=build /opt/parlor /opt/parlor
# /app holds only data/: the SQLite file when no PARLOR_DATABASE is given (mount a volume there).
RUN useradd --system --home-dir /app --shell /usr/sbin/nologin parlor \
    && mkdir -p /app/data && chown parlor /app/data
WORKDIR /app
USER parlor
VOLUME ["/app/data"]
# /metrics (Prometheus) and /healthz on PARLOR_METRICS_PORT
EXPOSE 9108
# healthy = every gateway connection open and the database answering (parlor health asks /healthz)
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["parlor", "health"]
CMD ["parlor"]
