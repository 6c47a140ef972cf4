package io.mtables.ddl.statements;

import io.mtables.schemas.plan.RefreshPlan;
import java.text.ParseException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Date;
import java.util.Optional;
import java.util.TimeZone;
import org.quartz.CronExpression;

/**
 * The next period boundary of a FULL table: when its next scheduled refresh is due, by the plan's
 * cron in the plan's time zone (UTC in plans written before it), with Quartz's own evaluation, as
 * the scheduler computes it.
 */
final class NextRefresh {

    private NextRefresh() {}

    static Optional<Instant> after(RefreshPlan plan, Instant now) {
        if (plan.status() != RefreshPlan.Status.ACTIVE
                || plan.mode() != RefreshPlan.Mode.FULL
                || plan.cron() == null) {
            return Optional.empty();
        }
        try {
            CronExpression cron = new CronExpression(plan.cron());
            cron.setTimeZone(
                    TimeZone.getTimeZone(
                            plan.timeZone() == null
                                    ? ZoneId.of("UTC")
                                    : ZoneId.of(plan.timeZone())));
            Date next = cron.getNextValidTimeAfter(Date.from(now));
            return Optional.ofNullable(next).map(Date::toInstant);
        } catch (ParseException | DateTimeException e) {
            return Optional.empty();
        }
    }
}
