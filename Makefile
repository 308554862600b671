# Shortcuts; each target works on a fresh machine with only python3 (3.11+): the scripts
# create .venv and install the pinned requirements first.
.PHONY: run test lint format typecheck check ci worker reliability clean

run:        ## install, migrate, (seed demo data) and serve on http://127.0.0.1:8000/
	scripts/run.sh

test:       ## install and run the whole test suite (pytest -n auto)
	scripts/test.sh

lint:       ## ruff lint + format check
	.venv/bin/ruff check .
	.venv/bin/ruff format --check .

format:     ## ruff format the whole tree (only format files you own)
	.venv/bin/ruff format .

typecheck:  ## mypy (strict for the pure packages pyproject.toml lists)
	.venv/bin/mypy .

check:      ## Django system checks (development settings)
	DJANGO_SETTINGS_MODULE=config.settings.base .venv/bin/python manage.py check

ci:         ## what CI runs: .ci/run
	bash .ci/run

worker:     ## a Celery worker with beat, for one machine (needs REDIS_URL; production settings unless DJANGO_SETTINGS_MODULE is set)
	.venv/bin/celery -A config worker --beat --loglevel INFO

reliability: ## races, killed worker, Redis and PostgreSQL outages, fuzzing (gunicorn + PG + Redis)
	scripts/services.sh
	.venv/bin/python bench/reliability.py

clean:
	rm -rf .pytest_cache .mypy_cache .ruff_cache .hypothesis staticfiles
