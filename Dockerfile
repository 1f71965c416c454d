# Parlor: one bot process per container. Settings come from the environment (see README);
# compose.yaml runs PostgreSQL and two shard processes.
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
# dependencies first (cached while only the code changes)
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY assets ./assets
RUN pip install . \
    && useradd --system --home-dir /app --shell /usr/sbin/nologin parlor \
    && mkdir -p /app/data && chown parlor /app/data
# /app is the working directory, so `python -m bot` runs the code beside assets/ (the fonts);
# data/ holds the SQLite file when no PARLOR_DATABASE is given (mount a volume there).
USER parlor
VOLUME ["/app/data"]
# the Prometheus endpoint, when PARLOR_METRICS_PORT=9108
EXPOSE 9108
CMD ["python", "-m", "bot"]
