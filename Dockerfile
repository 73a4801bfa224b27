# The UNO server: one image for the migration step and for the workers (docker-compose.yml).
#   docker build -t uno .
#   docker run -e UNO_DATABASE_URL=... -e UNO_REDIS_URL=... -p 8000:8000 uno
# The default command migrates (safe to repeat) and serves; docker-compose.yml runs the
# migrations once in their own service and starts the workers after it.
#
# The rules engine runs compiled: a first stage compiles app/engine with mypyc (the same sources,
# as C extensions; see app/engine/_build.py) and the image gets the extensions next to the .py
# files, which Python then imports instead. The build fails if the compiled engine does not load.

FROM python:3.11-slim AS engine
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
RUN pip install --no-cache-dir "mypy==2.4.1" setuptools
WORKDIR /src
COPY app/__init__.py ./app/
COPY app/engine ./app/engine
RUN python -m app.engine._build /out

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1

WORKDIR /srv
COPY pyproject.toml README.md ./
COPY app ./app
RUN pip install .
COPY --from=engine /out/app/engine/*.so ./app/engine/
COPY --from=engine /out/*.so ./
RUN python -c "import app.engine as e; assert e.COMPILED, 'the engine did not load compiled'"
COPY alembic.ini ./
COPY migrations ./migrations
COPY static ./static

RUN useradd --system --no-create-home uno
USER uno
EXPOSE 8000
ENV UNO_HOST=0.0.0.0 UNO_PORT=8000 UNO_WORKERS=1
CMD ["sh", "-c", "alembic upgrade head && exec python -m app --host \"$UNO_HOST\" --port \"$UNO_PORT\" --workers \"$UNO_WORKERS\" --timeout-graceful-shutdown 10"]
