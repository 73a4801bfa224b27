"""Settings from the environment (prefix ``UNO_``)."""

from __future__ import annotations

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="UNO_")

    database_url: str = "sqlite+aiosqlite:///./uno.db"
    redis_url: str | None = None
    testing: bool = False


def get_settings() -> Settings:
    return Settings()
