# The UNO server: one image for the migration step and for the workers (docker-compose.yml).
#   docker build -t uno .
#   docker run -e UNO_DATABASE_URL=... -e UNO_REDIS_URL=... -p 8000:8000 uno
# The default command migrates (safe to repeat) and serves; docker-compose.yml runs the
# migrations once in their own service and starts the workers after it.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1

WORKDIR /srv
COPY pyproject.toml README.md ./
COPY app ./app
RUN pip install .
COPY alembic.ini ./
COPY migrations ./migrations
COPY static ./static

RUN useradd --system --no-create-home uno
USER uno
EXPOSE 8000
ENV UNO_HOST=0.0.0.0 UNO_PORT=8000 UNO_WORKERS=1
CMD ["sh", "-c", "alembic upgrade head && exec uvicorn app.main:app --host \"$UNO_HOST\" --port \"$UNO_PORT\" --workers \"$UNO_WORKERS\" --timeout-graceful-shutdown 10"]
